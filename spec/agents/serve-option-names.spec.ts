import { AGENT_REQUEST_HANDLER_OPTIONS } from '../../lib/server/agent-request-handler-options';
import { AGENT_SERVER_OPTIONS } from '../../lib/agents/agent-server-options';
import {
  LISTENING_SERVER_OPTION_NAMES,
  SERVE_OPTION_GROUPS,
  toOptionFlags,
} from '../../lib/agents/serve-option-names';
import { PROTOLINK_SERVE_OPTION_NAMES } from '../../lib/nest/protolink-module-options';

const grouped = Object.values(SERVE_OPTION_GROUPS).flat();

describe('SERVE_OPTION_GROUPS', () => {
  it('puts each option in one group only', () => {
    expect(new Set(grouped).size).toBe(grouped.length);
    expect(
      grouped.filter((name) => (LISTENING_SERVER_OPTION_NAMES as readonly string[]).includes(name)),
    ).toEqual([]);
  });

  it('is what the server, the request handler and the Nest module check against, with their own few', () => {
    expect([...AGENT_SERVER_OPTIONS.names].sort()).toEqual(
      [...grouped, ...LISTENING_SERVER_OPTION_NAMES].sort(),
    );
    const handlerOwn = AGENT_REQUEST_HANDLER_OPTIONS.names.filter((name) => !grouped.includes(name as never));
    expect(handlerOwn.sort()).toEqual(['cardPath', 'listenHostname', 'path', 'port', 'unknownPaths']);
    const nestOwn = PROTOLINK_SERVE_OPTION_NAMES.names.filter((name) => !grouped.includes(name as never));
    expect(nestOwn.sort()).toEqual(['cardPath', 'listenHostname', 'path']);
    for (const names of [AGENT_REQUEST_HANDLER_OPTIONS.names, PROTOLINK_SERVE_OPTION_NAMES.names])
      expect(grouped.filter((name) => !names.includes(name))).toEqual([]);
  });
});

describe('toOptionFlags', () => {
  it('flags every name of every list once', () => {
    expect(toOptionFlags(['a', 'b'], ['b', 'c'])).toEqual({ a: true, b: true, c: true });
    expect(toOptionFlags()).toEqual({});
  });
});
