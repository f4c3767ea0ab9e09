import 'reflect-metadata';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { RunContext } from '../../lib/runtime/run-context';
import { AGENT_REQUEST_HANDLER_OPTIONS } from '../../lib/server/agent-request-handler-options';
import type { AgentRequestHandlerOptions } from '../../lib/server/agent-request-handler-options';
import { createAgentRequestHandler } from '../../lib/server/create-agent-request-handler';
import { createFakeAgent } from '../fixtures/serve/fake-agent';
import { InMemoryTaskStore } from '../../lib/tasks/in-memory-task-store';

// Required<…>: the compiler refuses this literal if AgentRequestHandlerOptions gains or loses an option.
const everyOption: Required<AgentRequestHandlerOptions> = {
  token: 'secret',
  sessionMode: 'stateless',
  sessionIdleTimeoutMs: 60_000,
  maxSessions: 10,
  maxSessionsPerClient: 5,
  maxBodyBytes: 65_536,
  maxConcurrentCallsPerSession: 4,
  maxConcurrentStatelessCalls: 8,
  allowedHosts: ['example.test'],
  allowedOrigins: '*',
  enableJsonResponse: true,
  eventStore: false,
  sseRetryMs: 500,
  maxEventStoreBytesPerSession: 1_000_000,
  maxEventStoreBytes: 2_000_000,
  eventStoreResumeWindowMs: 30_000,
  maxGetStreamsPerSession: 3,
  interactionTimeoutMs: 1_000,
  taskStore: new InMemoryTaskStore(),
  maxTaskTtlMs: 60_000,
  taskStoreLimits: { maxTasksPerOwner: 100 },
  taskPollIntervalMs: 100,
  maxSubscriptionsPerSession: 10,
  buildContext: (info) => new RunContext({ signal: info.signal }),
  onError: () => undefined,
  path: '/tools/mcp',
  cardPath: null,
  port: 8080,
  listenHostname: 'example.test',
  publicUrl: 'https://example.test',
  redis: 'redis://127.0.0.1:6379',
  redisKeyPrefix: 'spec:',
  unknownPaths: 'pass',
};

describe('AGENT_REQUEST_HANDLER_OPTIONS', () => {
  it('lists exactly the options of AgentRequestHandlerOptions', () => {
    expect([...AGENT_REQUEST_HANDLER_OPTIONS.names].sort()).toEqual(Object.keys(everyOption).sort());
  });
});

describe('createAgentRequestHandler', () => {
  describe('options that are not known', () => {
    it('takes every option at once', async () => {
      // Not redis (it needs a Redis), nor taskStoreLimits, which bounds the Redis task store only.
      const handler = createAgentRequestHandler(createFakeAgent(), {
        ...everyOption,
        redis: undefined,
        taskStoreLimits: undefined,
      });
      expect(handler.sessionCount).toBe(0);
      await handler.close();
    });

    it.each([
      [
        { url: 'http://127.0.0.1:8080' },
        "option 'url' is not known: the handler is mounted in your own HTTP server, which decides where to listen; for the URL the card advertises use publicUrl.",
      ],
      [
        { allowNonLoopback: true },
        "option 'allowNonLoopback' is not known: the handler is mounted in your own HTTP server",
      ],
      [
        { maxConnections: 10 },
        "option 'maxConnections' is not known: it bounds connections, which the server you run owns: set its maxConnections.",
      ],
      [{ headersTimeoutMs: 1000 }, 'set its headersTimeout.'],
      [{ card_path: '/card' }, "use 'cardPath' instead"],
      [{ pth: '/mcp' }, "option 'pth' is not known; did you mean 'path'?"],
    ])('refuses %j, naming it', (extra, message) => {
      const create = () => createAgentRequestHandler(createFakeAgent(), extra as AgentRequestHandlerOptions);
      expect(create).toThrow(ToolDefinitionError);
      expect(create).toThrow(`createAgentRequestHandler() option '${Object.keys(extra)[0]}' is not known`);
      expect(create).toThrow(message);
    });
  });
});
