import 'reflect-metadata';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { RunContext } from '../../lib/runtime/run-context';
import { AGENT_SERVER_OPTIONS } from '../../lib/agents/agent-server-options';
import type { AgentServerOptions } from '../../lib/agents/agent-server-options';
import { startAgentServer } from '../../lib/server/start-agent-server';
import { createFakeAgent } from '../fixtures/serve/fake-agent';
import { connectHttpClient } from '../fixtures/serve/http-helpers';
import { InMemoryTaskStore } from '../../lib/tasks/in-memory-task-store';

// Required<…>: the compiler refuses this literal if AgentServerOptions gains or loses an option.
const everyOption: Required<AgentServerOptions> = {
  url: 'http://127.0.0.1:0',
  allowNonLoopback: false,
  token: null,
  sessionMode: 'stateful',
  sessionIdleTimeoutMs: 60_000,
  maxSessions: 10,
  maxSessionsPerClient: 5,
  maxBodyBytes: 65_536,
  maxConcurrentCallsPerSession: 4,
  maxConcurrentStatelessCalls: 8,
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 10_000,
  keepAliveTimeoutMs: 2_000,
  maxConnections: 64,
  allowedHosts: ['example.test'],
  publicUrl: 'https://agent.example.test',
  redis: 'redis://127.0.0.1:6379',
  redisKeyPrefix: 'spec:',
  allowedOrigins: ['http://example.test'],
  enableJsonResponse: false,
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
};

describe('AGENT_SERVER_OPTIONS', () => {
  it('lists exactly the options of AgentServerOptions', () => {
    expect([...AGENT_SERVER_OPTIONS.names].sort()).toEqual(Object.keys(everyOption).sort());
  });
});

describe('startAgentServer', () => {
  describe('options that are not known', () => {
    it('serves with every option at once', async () => {
      // Not redis (it needs a Redis), nor taskStoreLimits, which bounds the Redis task store only.
      const handle = await startAgentServer(createFakeAgent(), {
        ...everyOption,
        redis: undefined,
        taskStoreLimits: undefined,
      });
      try {
        const client = await connectHttpClient(handle.mcpUrl);
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toContain('add');
        await client.close();
      } finally {
        await handle.close();
      }
    });

    it.each([
      [{ port: 8080 }, "option 'port' is not known: put the port in url, e.g. url: 'http://127.0.0.1:8080'"],
      [{ host: '0.0.0.0' }, "option 'host' is not known: put the address in url"],
      [{ stateless: true }, "option 'stateless' is not known: use sessionMode: 'stateless'."],
      [{ path: '/tools' }, 'for another path mount createAgentRequestHandler(agent, { path })'],
      [
        { allow_non_loopback: true },
        "option 'allow_non_loopback' is not known: it is the original's snake_case spelling; options are camelCase, use 'allowNonLoopback' instead.",
      ],
      [{ maxSesions: 3 }, "option 'maxSesions' is not known; did you mean 'maxSessions'?"],
      [{ verbose: true }, "option 'verbose' is not known; remove it"],
    ])('refuses %j before listening, naming it', async (extra, message) => {
      const started = startAgentServer(createFakeAgent(), { ...extra } as AgentServerOptions);
      await expect(started).rejects.toThrow(ToolDefinitionError);
      await expect(started).rejects.toThrow(
        `startAgentServer() option '${Object.keys(extra)[0]}' is not known`,
      );
      await expect(started).rejects.toThrow(message);
    });
  });
});
