import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { buildMcpNameMap, toLocalToolName } from '../../../lib/mcp/client/map-mcp-tool-name';
import { TOOL_NAME_PATTERN } from '../../../lib/tools/tool-name';

describe('toLocalToolName', () => {
  it('keeps names every provider accepts, with the prefix', () => {
    expect(toLocalToolName('create_issue')).toBe('create_issue');
    expect(toLocalToolName('create_issue', 'gh_')).toBe('gh_create_issue');
  });

  it('maps dots, spaces and names over 64 characters to stable valid names with a hash', () => {
    const dotted = toLocalToolName('files.read');
    expect(dotted).toMatch(/^files_read_[0-9a-f]{8}$/);
    expect(toLocalToolName('files.read')).toBe(dotted);
    expect(toLocalToolName('files read')).not.toBe(dotted);
    const long = toLocalToolName('x'.repeat(200));
    expect(long).toHaveLength(64);
    for (const name of ['a b', '../etc', 'ünïcode', '', '<IMPORTANT>', 'x'.repeat(65)])
      expect(toLocalToolName(name)).toMatch(TOOL_NAME_PATTERN);
  });
});

describe('buildMcpNameMap', () => {
  it('maps both ways', () => {
    const map = buildMcpNameMap(['a.b', 'c'], 'p_', 'srv');
    const local = map.toLocal.get('a.b') as string;
    expect(map.toRemote.get(local)).toBe('a.b');
    expect(map.toLocal.get('c')).toBe('p_c');
  });

  it('sets aside the later of two remote names that map to one local name instead of overwriting', () => {
    const mapped = toLocalToolName('a.b');
    const map = buildMcpNameMap(['a.b', mapped, 'c'], '', 'srv');
    expect(map.toLocal.get('a.b')).toBe(mapped);
    expect(map.toRemote.get(mapped)).toBe('a.b');
    expect(map.toLocal.has(mapped)).toBe(false);
    expect(map.toLocal.get('c')).toBe('c');
    expect(map.problems.get(mapped)).toEqual(
      new ToolDefinitionError(
        `MCP server 'srv' has the tools "a.b" and "${mapped}", which both map to the local name '${mapped}'; "${mapped}" is set aside. Rename one on the server.`,
      ),
    );
    expect(map.problems.get(mapped)?.toolName).toBe(mapped);
  });

  it('lets a bound remote name keep its local name against an earlier one', () => {
    const mapped = toLocalToolName('a.b');
    const map = buildMcpNameMap(['a.b', mapped, 'c'], '', 'srv', new Set([mapped, 'gone']));
    expect(map.toRemote.get(mapped)).toBe(mapped);
    expect(map.toLocal.has('a.b')).toBe(false);
    expect(map.toLocal.get('c')).toBe('c');
    expect(map.problems.get('a.b')?.message).toBe(
      `MCP server 'srv' has the tools "${mapped}" and "a.b", which both map to the local name '${mapped}'; "a.b" is set aside. Rename one on the server.`,
    );
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'])(
    'sets aside %s, a name every object has, and suggests a namePrefix',
    (name) => {
      const map = buildMcpNameMap([name, 'ok'], '', 'srv');
      expect(map.toLocal.has(name)).toBe(false);
      expect(map.toLocal.get('ok')).toBe('ok');
      expect(map.problems.get(name)?.message).toBe(
        `MCP tool ${JSON.stringify(name)} on server 'srv' would get the local name '${name}', which every JavaScript object already has; it is set aside. Give the adapter a namePrefix (e.g. 'mcp_') to use it.`,
      );
      expect(buildMcpNameMap([name], 'mcp_', 'srv').toLocal.get(name)).toBe(`mcp_${name}`);
    },
  );
});
