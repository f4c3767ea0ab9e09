import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Agent } from '../../../../lib/agents/agent';
import type { AgentServerHandle } from '../../../../lib/agents/agent-server-options';
import { startAgentServer } from '../../../../lib/server/start-agent-server';
import { ERROR_META_KEY } from '../../../../lib/mcp/wire/to-call-tool-result';
import { InMemoryTaskStore } from '../../../../lib/tasks/in-memory-task-store';
import { NativeTool } from '../../../../lib/tools/native-tool';
import { buildTaskAgent } from '../../../fixtures/tasks/task-agent';

/** About 0.9 MB of rows, as the finding's tool returned (one string, shared by every call). */
const ROWS = 'row;'.repeat(230_000);

/** The task agent with `export_rows` (returns ROWS at once) and `hold` (runs until `release()`). */
function buildBoundedAgent(store: InMemoryTaskStore): { agent: Agent; release: () => void } {
  const agent = buildTaskAgent({ taskStore: store });
  let waiting: Array<() => void> = [];
  agent.addTool(
    new NativeTool({
      name: 'export_rows',
      description: 'Exports every row at once',
      inputSchema: {},
      task: 'optional',
      func: () => ROWS,
    }),
  );
  agent.addTool(
    new NativeTool({
      name: 'hold',
      description: 'Runs until released',
      inputSchema: {},
      task: 'required',
      func: () => new Promise<string>((resolve) => waiting.push(() => resolve('released'))),
    }),
  );
  return {
    agent,
    release: () => {
      const now = waiting;
      waiting = [];
      for (const resolve of now) resolve();
    },
  };
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'spec', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error('expected an McpError');
}

async function startTask(client: Client, name: string): Promise<string> {
  const created = await client.request(
    { method: 'tools/call', params: { name, arguments: {}, task: {} } },
    CreateTaskResultSchema,
  );
  return created.task.taskId;
}

describe('served tasks: bounded storage (in memory)', () => {
  let server: AgentServerHandle | undefined;
  let client: Client | undefined;

  afterEach(async () => {
    await client?.close();
    await server?.close();
    client = server = undefined;
  });

  it('keeps one session within its byte bound when it starts 300 tasks returning 0.9 MB each, forgetting its oldest ended first', async () => {
    // The finding: 300 such tasks, none refused, all kept for the granted hour (+280 MiB in memory).
    const store = new InMemoryTaskStore();
    server = await startAgentServer(buildBoundedAgent(store).agent, {});
    client = await connect(server.mcpUrl);
    const ids: string[] = [];
    for (let index = 0; index < 300; index++) ids.push(await startTask(client, 'export_rows'));
    const last = await client.experimental.tasks.getTaskResult(ids[299], CallToolResultSchema);
    expect(last.content).toEqual([{ type: 'text', text: ROWS }]);
    // No more results than fit the default 32 MiB per owner, the newest kept: the oldest read as expired.
    const perResult = JSON.stringify(last).length;
    const fit = Math.floor((32 * 1024 * 1024) / perResult);
    expect(store.size).toBeLessThanOrEqual(fit);
    const forgotten = await rejection(client.experimental.tasks.getTask(ids[0]));
    expect(forgotten.code).toBe(-32602);
    expect(forgotten.message).toMatch(/Task not found: .*expired/);
    expect((await client.experimental.tasks.getTask(ids[299])).status).toBe('completed');
    const listed = await client.experimental.tasks.listTasks();
    expect(listed.tasks.map((task) => task.taskId)).toEqual(ids.slice(300 - listed.tasks.length));
  });

  it('refuses a task with -32029 while the session holds its most tasks, all running, and takes one again once one ended', async () => {
    const store = new InMemoryTaskStore({ maxTasksPerOwner: 2 });
    const { agent, release } = buildBoundedAgent(store);
    server = await startAgentServer(agent, {});
    client = await connect(server.mcpUrl);
    const first = await startTask(client, 'hold');
    await startTask(client, 'hold');
    const refused = await rejection(startTask(client, 'hold'));
    expect(refused.code).toBe(-32029);
    expect(refused.message).toContain(
      "Tool 'hold' was not started as a task: this session (or token) already has 2 tasks kept (maxTasksPerOwner), all still running.",
    );
    expect(refused.data).toEqual({ bound: 'maxTasksPerOwner', limit: 2 });
    // Another session has bounds of its own.
    const other = await connect(server.mcpUrl);
    try {
      expect(await startTask(other, 'export_rows')).toEqual(expect.any(String));
    } finally {
      await other.close();
    }
    release();
    await client.experimental.tasks.getTaskResult(first, CallToolResultSchema);
    const third = await startTask(client, 'hold');
    expect((await client.experimental.tasks.getTask(third)).status).toBe('working');
    expect((await rejection(client.experimental.tasks.getTask(first))).code).toBe(-32602);
    release();
  });

  it('stores a result over maxResultBytesPerTask as a failed task saying it was too large to keep (the tool ran)', async () => {
    const store = new InMemoryTaskStore({ maxResultBytesPerTask: 100_000 });
    server = await startAgentServer(buildBoundedAgent(store).agent, {});
    client = await connect(server.mcpUrl);
    const taskId = await startTask(client, 'export_rows');
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toMatch(
      /^The result of tool 'export_rows' was too large to keep: \d+ bytes, over the task store's 100000 bytes per task \(maxResultBytesPerTask\)\. The tool did run; .*raise maxResultBytesPerTask of the task store\.$/,
    );
    expect(result._meta?.[ERROR_META_KEY]).toMatchObject({
      name: 'TaskResultTooLargeError',
      code: 'TASK_RESULT_TOO_LARGE',
      limit: 100_000,
    });
    const task = await client.experimental.tasks.getTask(taskId);
    expect(task).toMatchObject({ status: 'failed', statusMessage: text });
    expect(store.resultBytes).toBeLessThan(100_000);
  });
});
