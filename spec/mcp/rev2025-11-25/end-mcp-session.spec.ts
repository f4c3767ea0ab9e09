import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Agent } from '../../../lib/agents/agent';
import type { AgentServerHandle, AgentServerOptions } from '../../../lib/agents/agent-server-options';
import { SESSION_ENDED_TASK_MESSAGE } from '../../../lib/mcp/rev2025-11-25/tasks/served-tasks-of';
import { startAgentServer } from '../../../lib/server/start-agent-server';
import type { RunContext } from '../../../lib/runtime/run-context';
import { InMemoryTaskStore } from '../../../lib/tasks/in-memory-task-store';
import type { TaskStore } from '../../../lib/tasks/task-store';
import { NativeTool } from '../../../lib/tools/native-tool';
import { initializeBody, MCP_HEADERS, rawRequest } from '../../fixtures/serve/http-helpers';
import { describeWithRedis, startRedisServer } from '../../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../../fixtures/redis/redis-server';
import { waitFor } from '../../fixtures/state/session-seam-contracts';

/** What the tool of {@link buildAgent} saw: runs going now, started, and ended by their signal. */
interface RunLog {
  running: number;
  started: number;
  aborted: number;
}

/** `crawl` (a task, or a plain call) runs until its signal aborts. */
function buildAgent(): { agent: Agent; log: RunLog } {
  const log: RunLog = { running: 0, started: 0, aborted: 0 };
  const agent = new Agent({
    card: { name: 'ending-agent', description: 'Runs until stopped', url: 'http://127.0.0.1:0' },
  });
  agent.addTool(
    new NativeTool({
      name: 'crawl',
      description: 'Runs until its signal aborts',
      inputSchema: {},
      task: 'optional',
      func: (_args, context: RunContext) => {
        log.running += 1;
        log.started += 1;
        return new Promise((_resolve, reject) =>
          context.signal.addEventListener('abort', () => {
            log.running -= 1;
            log.aborted += 1;
            reject(new Error('crawl stopped'));
          }),
        );
      },
    }),
  );
  return { agent, log };
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function serve(agent: Agent, options: AgentServerOptions): Promise<AgentServerHandle> {
  const server = await startAgentServer(agent, { taskPollIntervalMs: 50, ...options });
  cleanups.push(() => server.close());
  return server;
}

async function connect(url: string, options: { sessionId?: string; token?: string } = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    sessionId: options.sessionId,
    requestInit: options.token ? { headers: { authorization: `Bearer ${options.token}` } } : undefined,
  });
  const client = new Client({ name: 'spec', version: '1.0.0' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, transport };
}

async function startTask(client: Client, name = 'crawl'): Promise<string> {
  const created = await client.request(
    { method: 'tools/call', params: { name, arguments: {}, task: { ttl: 60_000 } } },
    CreateTaskResultSchema,
  );
  return created.task.taskId;
}

/** The task's status and message as the store holds them (the session that could read them is gone). */
async function statusOf(store: TaskStore, taskId: string, owner: string) {
  const record = await store.get(taskId, owner);
  return { status: record?.status, statusMessage: record?.statusMessage };
}

describe('the end of an MCP session (one process)', () => {
  it('cancels the tasks a DELETEd session owned: three rounds of 16 leave no run going', async () => {
    // The finding: "start 16 tasks, DELETE the session" three times left 48 runs nobody could reach.
    const { agent, log } = buildAgent();
    const taskStore = new InMemoryTaskStore();
    const server = await serve(agent, { taskStore });
    for (let round = 1; round <= 3; round += 1) {
      const { client, transport } = await connect(server.mcpUrl);
      const sessionId = transport.sessionId!;
      const taskIds: string[] = [];
      for (let index = 0; index < 16; index += 1) taskIds.push(await startTask(client));
      await waitFor(() => log.running === 16);
      await transport.terminateSession();
      await waitFor(() => log.running === 0);
      for (const taskId of taskIds) {
        await expect(statusOf(taskStore, taskId, `session:${sessionId}`)).resolves.toEqual({
          status: 'cancelled',
          statusMessage: SESSION_ENDED_TASK_MESSAGE,
        });
      }
    }
    expect({ started: log.started, aborted: log.aborted, running: log.running }).toEqual({
      started: 48,
      aborted: 48,
      running: 0,
    });
  });

  it('aborts a plain call in flight when its session is DELETEd', async () => {
    const { agent, log } = buildAgent();
    const server = await serve(agent, {});
    const { client, transport } = await connect(server.mcpUrl);
    const call = client.callTool({ name: 'crawl', arguments: {} }).catch((error: unknown) => error);
    await waitFor(() => log.running === 1);
    await transport.terminateSession();
    await waitFor(() => log.aborted === 1);
    expect(log.running).toBe(0);
    // The call gets no answer (it was aborted, not answered); the client gives up on it when it closes.
    void call;
  });

  it('expires a session whose only activity is a running task, and cancels the task', async () => {
    const { agent, log } = buildAgent();
    const taskStore = new InMemoryTaskStore();
    const server = await serve(agent, { taskStore, sessionIdleTimeoutMs: 500 });
    const { client, transport } = await connect(server.mcpUrl);
    const taskId = await startTask(client);
    await waitFor(() => log.running === 1);
    // The client sends nothing more: the run alone does not keep the session.
    await waitFor(() => log.aborted === 1, 10_000);
    expect(server.sessionCount).toBe(0);
    await expect(statusOf(taskStore, taskId, `session:${transport.sessionId!}`)).resolves.toEqual({
      status: 'cancelled',
      statusMessage: SESSION_ENDED_TASK_MESSAGE,
    });
  }, 15_000);

  it("counts an ended session against the caps while its runs still go (a token's tasks)", async () => {
    const { agent, log } = buildAgent();
    const server = await serve(agent, { token: 'secret-token', maxSessionsPerClient: 2 });
    const token = { authorization: 'Bearer secret-token' };
    const first = await connect(server.mcpUrl, { token: 'secret-token' });
    const taskId = await startTask(first.client);
    await waitFor(() => log.running === 1);
    await first.transport.terminateSession();
    // The deleted session still holds its place while the token's task it started runs.
    const next = await connect(server.mcpUrl, { token: 'secret-token' });
    const refused = await rawRequest({
      port: server.port,
      headers: { ...MCP_HEADERS, ...token },
      body: initializeBody(),
    });
    expect(refused.status).toBe(429);
    expect(refused.json.error.message).toBe(
      'Too Many Requests: this client already has 2 sessions open; close one (DELETE) or retry later.',
    );
    await next.client.experimental.tasks.cancelTask(taskId);
    // Once the run has ended (its slot given back), the place is free.
    let status = 0;
    await waitFor(async () => {
      const opened = await rawRequest({
        port: server.port,
        headers: { ...MCP_HEADERS, ...token },
        body: initializeBody(),
      });
      status = opened.status;
      return status !== 429;
    });
    expect(status).toBe(200);
    expect(log.running).toBe(0);
  });

  it("leaves a token's tasks running when a session ends: the token's next session reads and cancels them", async () => {
    const { agent, log } = buildAgent();
    const server = await serve(agent, { token: 'secret-token' });
    const first = await connect(server.mcpUrl, { token: 'secret-token' });
    const taskId = await startTask(first.client);
    await waitFor(() => log.running === 1);
    await first.transport.terminateSession();
    const next = await connect(server.mcpUrl, { token: 'secret-token' });
    expect((await next.client.experimental.tasks.getTask(taskId)).status).toBe('working');
    expect(log.running).toBe(1);
    await next.client.experimental.tasks.cancelTask(taskId);
    await waitFor(() => log.running === 0);
  });
});

describeWithRedis('the end of an MCP session (two processes sharing Redis)', () => {
  let redis: RedisServerHandle;
  let prefixes = 0;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.dispose();
  });

  /** Two servers on one Redis prefix (of their own for each test), their agents, and a task store to read. */
  async function serveTwo(options: AgentServerOptions = {}) {
    prefixes += 1;
    const shared = { redis: redis.url, redisKeyPrefix: `${redis.keyPrefix}e${prefixes}:`, ...options };
    const first = buildAgent();
    const second = buildAgent();
    return {
      first: { ...first, server: await serve(first.agent, shared) },
      second: { ...second, server: await serve(second.agent, shared) },
    };
  }

  it('cancels the tasks running on one process when the session is DELETEd through the other', async () => {
    const { first, second } = await serveTwo();
    const onFirst = await connect(first.server.mcpUrl);
    const taskIds: string[] = [];
    for (let index = 0; index < 16; index += 1) taskIds.push(await startTask(onFirst.client));
    await waitFor(() => first.log.running === 16);
    const onSecond = await connect(second.server.mcpUrl, { sessionId: onFirst.transport.sessionId });
    await onSecond.transport.terminateSession();
    await waitFor(() => first.log.running === 0);
    expect(first.log.aborted).toBe(16);
    expect(first.server.sessionCount).toBe(0);
  });

  it('aborts a plain call running on one process when the session is DELETEd through the other', async () => {
    const { first, second } = await serveTwo();
    const onFirst = await connect(first.server.mcpUrl);
    const call = onFirst.client.callTool({ name: 'crawl', arguments: {} }).catch((error: unknown) => error);
    await waitFor(() => first.log.running === 1);
    const onSecond = await connect(second.server.mcpUrl, { sessionId: onFirst.transport.sessionId });
    await onSecond.transport.terminateSession();
    await waitFor(() => first.log.aborted === 1);
    void call;
  });

  it('cancels the tasks of a session that expired, on the process running them', async () => {
    const { first } = await serveTwo({ sessionIdleTimeoutMs: 1_000 });
    const onFirst = await connect(first.server.mcpUrl);
    await startTask(onFirst.client);
    await waitFor(() => first.log.running === 1);
    // Nothing more from the client: the record expires, and the process running the task sees it gone.
    await waitFor(() => first.log.aborted === 1, 15_000);
    expect(first.log.running).toBe(0);
  }, 20_000);
});
