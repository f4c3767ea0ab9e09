import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { createClient } from 'redis';
import type { AgentServerHandle, AgentServerOptions } from '../../../../lib/agents/agent-server-options';
import { startAgentServer } from '../../../../lib/server/start-agent-server';
import { NativeTool } from '../../../../lib/tools/native-tool';
import { describeWithRedis, startRedisServer } from '../../../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../../../fixtures/redis/redis-server';
import { buildTaskAgent } from '../../../fixtures/tasks/task-agent';

/** About 0.9 MB of rows, as the finding's tool returned. */
const ROWS = 'row;'.repeat(230_000);

async function startTask(client: Client, name: string): Promise<string> {
  const created = await client.request(
    { method: 'tools/call', params: { name, arguments: {}, task: {} } },
    CreateTaskResultSchema,
  );
  return created.task.taskId;
}

describeWithRedis('served tasks on Redis: bounded storage', () => {
  let redis: RedisServerHandle;
  let server: AgentServerHandle | undefined;
  let client: Client | undefined;
  let raw: ReturnType<typeof createClient>;

  beforeAll(async () => {
    redis = await startRedisServer();
    raw = createClient({ url: redis.url });
    await raw.connect();
  });

  afterEach(async () => {
    await client?.close();
    await server?.close();
    client = server = undefined;
  });

  afterAll(async () => {
    raw?.destroy();
    await redis?.dispose();
  });

  const serve = async (keyPrefix: string, options: AgentServerOptions = {}): Promise<Client> => {
    const agent = buildTaskAgent();
    agent.addTool(
      new NativeTool({
        name: 'export_rows',
        description: 'Exports every row at once',
        inputSchema: {},
        task: 'optional',
        func: () => ROWS,
      }),
    );
    server = await startAgentServer(agent, { redis: redis.url, redisKeyPrefix: keyPrefix, ...options });
    client = new Client({ name: 'spec', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl)));
    return client;
  };

  /** What Redis holds for the keys under a prefix (their MEMORY USAGE). */
  const heldUnder = async (keyPrefix: string): Promise<number> => {
    let held = 0;
    for await (const keys of raw.scanIterator({ MATCH: `${keyPrefix}*`, COUNT: 1000 })) {
      for (const key of [keys].flat()) held += (await raw.memoryUsage(key)) ?? 0;
    }
    return held;
  };

  it("keeps one session's results in Redis within the default 32 MiB when it starts 80 tasks returning 0.9 MB each", async () => {
    // The finding: 300 such tasks took +265 MiB in Redis, all kept for the granted hour.
    const keyPrefix = `${redis.keyPrefix}rows:`;
    const session = await serve(keyPrefix);
    const ids: string[] = [];
    for (let index = 0; index < 80; index++) ids.push(await startTask(session, 'export_rows'));
    const last = await session.experimental.tasks.getTaskResult(ids[79], CallToolResultSchema);
    expect(last.content).toEqual([{ type: 'text', text: ROWS }]);
    const held = await heldUnder(keyPrefix);
    expect(held).toBeGreaterThan(20 * 1024 * 1024);
    // At most a quarter more than the bound: what Redis's allocator adds to each result.
    expect(held).toBeLessThan(1.25 * 32 * 1024 * 1024);
    const forgotten = await session.experimental.tasks.getTask(ids[0]).catch((error: unknown) => error);
    expect(forgotten).toBeInstanceOf(McpError);
    expect((forgotten as McpError).code).toBe(-32602);
  });

  it('takes its bounds from taskStoreLimits: -32029 while the session holds its most tasks, all running', async () => {
    const session = await serve(`${redis.keyPrefix}limits:`, { taskStoreLimits: { maxTasksPerOwner: 2 } });
    const crawls = [await startTask(session, 'crawl'), await startTask(session, 'crawl')];
    const refused = await startTask(session, 'crawl').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect(refused).toMatchObject({ code: -32029, data: { bound: 'maxTasksPerOwner', limit: 2 } });
    await session.experimental.tasks.cancelTask(crawls[0]);
    expect((await session.experimental.tasks.getTask(await startTask(session, 'crawl'))).status).toBe(
      'working',
    );
    await session.experimental.tasks.cancelTask(crawls[1]);
  });
});
