// Tasks over several processes: a round-robin proxy (no session affinity) in front of three
// `protolink serve --redis` processes sharing one redis-server; the SDK's own tasks client is the judge.
import 'reflect-metadata';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { describeWithRedis, startRedisServer } from '../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../fixtures/redis/redis-server';
import type { RoundRobinProxy } from '../fixtures/round-robin-proxy';
import { startServeCluster } from '../fixtures/serve/serve-processes';
import type { ServeCluster } from '../fixtures/serve/serve-processes';

const MODULE = join(__dirname, '..', 'fixtures', 'tasks', 'task-agent-module.ts');

describeWithRedis('tasks through a round-robin proxy over three protolink serve --redis', () => {
  let redis: RedisServerHandle;
  let cluster: ServeCluster | undefined;
  let proxy: RoundRobinProxy;
  let client: Client;

  beforeAll(async () => {
    redis = await startRedisServer();
    cluster = await startServeCluster(3, redis, { module: MODULE, readyTimeoutMs: 240_000 });
    ({ proxy } = cluster);
    client = new Client({ name: 'spec', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.mcpUrl)));
  }, 300_000);

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await cluster?.close();
    await redis?.dispose();
  });

  const start = async (name: string, args: Record<string, unknown>) =>
    (
      await client.request(
        { method: 'tools/call', params: { name, arguments: args, task: { ttl: 60_000 } } },
        CreateTaskResultSchema,
      )
    ).task.taskId;

  it('creates tasks on one process and gets, lists and collects them through any', async () => {
    const before = [...proxy.requestsPerTarget];
    const ids = [
      await start('report', { topic: 'a', ms: 300 }),
      await start('report', { topic: 'b', ms: 10 }),
    ];
    for (const taskId of ids) {
      expect(['working', 'completed']).toContain((await client.experimental.tasks.getTask(taskId)).status);
    }
    const results = [];
    for (const taskId of ids) {
      results.push(await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema));
    }
    expect(results.map((result) => result.content)).toEqual([
      [{ type: 'text', text: 'report on a' }],
      [{ type: 'text', text: 'report on b' }],
    ]);
    const listed = (await client.experimental.tasks.listTasks()).tasks.map((task) => task.taskId);
    expect(listed).toEqual(expect.arrayContaining(ids));
    // Every process answered some of these requests.
    expect(proxy.requestsPerTarget.every((count, index) => count > before[index])).toBe(true);
  });

  it('cancels a task from whichever process the request lands on, and refuses its result', async () => {
    const taskId = await start('crawl', {});
    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    expect(cancelled.status).toBe('cancelled');
    await expect(client.experimental.tasks.getTaskResult(taskId)).rejects.toThrow(/was cancelled/);
    for (let read = 0; read < 3; read++) {
      expect((await client.experimental.tasks.getTask(taskId)).status).toBe('cancelled');
    }
    await expect(client.experimental.tasks.cancelTask(taskId)).rejects.toThrow(/terminal status/);
  });
});
