import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { startAgentServer } from '../../../../lib/server/start-agent-server';
import type { AgentServerHandle } from '../../../../lib/agents/agent-server-options';
import { describeWithRedis, startRedisServer } from '../../../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../../../fixtures/redis/redis-server';
import { buildTaskAgent } from '../../../fixtures/tasks/task-agent';

describeWithRedis('served tasks on Redis (SDK client as judge, two servers)', () => {
  let redis: RedisServerHandle;
  let first: AgentServerHandle;
  let second: AgentServerHandle;
  let onFirst: Client;
  let onSecond: Client;
  let stranger: Client;

  beforeAll(async () => {
    redis = await startRedisServer();
    const options = { redis: redis.url, redisKeyPrefix: redis.keyPrefix, taskPollIntervalMs: 50 };
    first = await startAgentServer(buildTaskAgent(), options);
    second = await startAgentServer(buildTaskAgent(), options);
    onFirst = new Client({ name: 'spec', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(first.mcpUrl));
    await onFirst.connect(transport);
    // The same session, reached through the other server (as a load balancer without stickiness would).
    onSecond = new Client({ name: 'spec', version: '1.0.0' });
    await onSecond.connect(
      new StreamableHTTPClientTransport(new URL(second.mcpUrl), { sessionId: transport.sessionId }),
    );
    stranger = new Client({ name: 'stranger', version: '1.0.0' });
    await stranger.connect(new StreamableHTTPClientTransport(new URL(second.mcpUrl)));
  });

  afterAll(async () => {
    await onFirst?.close();
    await onSecond?.close();
    await stranger?.close();
    await first?.close();
    await second?.close();
    await redis?.dispose();
  });

  const start = async (client: Client, name: string, args: Record<string, unknown>) =>
    (
      await client.request(
        { method: 'tools/call', params: { name, arguments: args, task: { ttl: 60_000 } } },
        CreateTaskResultSchema,
      )
    ).task.taskId;

  it('creates a task on one server and reads, awaits and lists it through the other', async () => {
    const taskId = await start(onFirst, 'report', { topic: 'shared', ms: 150 });
    expect((await onSecond.experimental.tasks.getTask(taskId)).status).toBe('working');
    const result = await onSecond.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result.content).toEqual([{ type: 'text', text: 'report on shared' }]);
    expect((await onFirst.experimental.tasks.getTask(taskId)).status).toBe('completed');
    const listed = await onSecond.experimental.tasks.listTasks();
    expect(listed.tasks.map((task) => task.taskId)).toContain(taskId);
    expect((await stranger.experimental.tasks.listTasks()).tasks).toEqual([]);
    await expect(stranger.experimental.tasks.getTask(taskId)).rejects.toThrow(McpError);
  });

  it('cancels through the other server: the run on the first one stops, and its result is refused', async () => {
    const taskId = await start(onFirst, 'crawl', {});
    const cancelled = await onSecond.experimental.tasks.cancelTask(taskId);
    expect(cancelled.status).toBe('cancelled');
    await expect(onFirst.experimental.tasks.getTaskResult(taskId)).rejects.toThrow(/was cancelled/);
    await expect(onFirst.experimental.tasks.cancelTask(taskId)).rejects.toThrow(
      /terminal status 'cancelled'/,
    );
  });

  it('records the tasks of a server that closes as failed at once, as every other server reads them', async () => {
    const options = { redis: redis.url, redisKeyPrefix: redis.keyPrefix, taskPollIntervalMs: 50 };
    const closing = await startAgentServer(buildTaskAgent(), options);
    const transport = new StreamableHTTPClientTransport(new URL(closing.mcpUrl));
    const onClosing = new Client({ name: 'spec', version: '1.0.0' });
    await onClosing.connect(transport);
    const taskId = await start(onClosing, 'crawl', {});
    await onClosing.close();
    await closing.close();
    const survivor = new Client({ name: 'spec', version: '1.0.0' });
    await survivor.connect(
      new StreamableHTTPClientTransport(new URL(second.mcpUrl), { sessionId: transport.sessionId }),
    );
    try {
      // At once: not after the 15 s lease of a process that stopped answering.
      const task = await survivor.experimental.tasks.getTask(taskId);
      expect(task.status).toBe('failed');
      expect(task.statusMessage).toMatch(/The server shut down while the task ran/);
    } finally {
      await survivor.close();
    }
  });
});
