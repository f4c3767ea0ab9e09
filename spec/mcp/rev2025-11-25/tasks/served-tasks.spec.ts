import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Agent } from '../../../../lib/agents/agent';
import { startAgentServer } from '../../../../lib/server/start-agent-server';
import type { AgentServerHandle } from '../../../../lib/agents/agent-server-options';
import { InMemoryTaskStore } from '../../../../lib/tasks/in-memory-task-store';
import { buildTaskAgent } from '../../../fixtures/tasks/task-agent';

async function connect(url: string, elicit = false): Promise<Client> {
  const client = new Client(
    { name: 'spec', version: '1.0.0' },
    { capabilities: elicit ? { elicitation: {} } : {} },
  );
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { name: 'Ada' },
    }));
  }
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

describe('served tasks (SDK client as judge, in memory)', () => {
  let agent: Agent;
  let store: InMemoryTaskStore;
  let server: AgentServerHandle;
  let client: Client;
  let other: Client;

  beforeAll(async () => {
    store = new InMemoryTaskStore();
    agent = buildTaskAgent();
    server = await startAgentServer(agent, {
      taskStore: store,
      taskPollIntervalMs: 50,
      maxTaskTtlMs: 60_000,
    });
    client = await connect(server.mcpUrl, true);
    other = await connect(server.mcpUrl);
    await client.listTools();
  });

  afterAll(async () => {
    await client.close();
    await other.close();
    await server.close();
  });

  it('declares the tasks capability and each tool taskSupport', async () => {
    expect(client.getServerCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await client.listTools();
    const support = Object.fromEntries(tools.map((tool) => [tool.name, tool.execution?.taskSupport]));
    expect(support).toMatchObject({ report: 'optional', crawl: 'required', add: undefined });
  });

  it('runs a tool as a task through callToolStream: created, polled, result', async () => {
    const types: string[] = [];
    let result: unknown;
    for await (const message of client.experimental.tasks.callToolStream(
      { name: 'report', arguments: { topic: 'sales', ms: 80 } },
      CallToolResultSchema,
      { task: { ttl: 30_000 } },
    )) {
      types.push(message.type);
      if (message.type === 'result') result = message.result;
    }
    expect(types[0]).toBe('taskCreated');
    expect(types).toContain('taskStatus');
    expect(types[types.length - 1]).toBe('result');
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'report on sales' }] });
  });

  it('answers getTask, getTaskResult (blocking until terminal) and listTasks for the own session only', async () => {
    const created = await client.request(
      {
        method: 'tools/call',
        params: { name: 'report', arguments: { topic: 'q3', ms: 100 }, task: { ttl: 99_999_999 } },
      },
      (await import('@modelcontextprotocol/sdk/types.js')).CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    expect(created.task).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: 50 });
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('working');
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result.content).toEqual([{ type: 'text', text: 'report on q3' }]);
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('completed');
    const listed = await client.experimental.tasks.listTasks();
    expect(listed.tasks.map((task) => task.taskId)).toContain(taskId);
    expect((await other.experimental.tasks.listTasks()).tasks).toEqual([]);
    expect((await rejection(other.experimental.tasks.getTask(taskId))).code).toBe(-32602);
    expect((await rejection(other.experimental.tasks.getTaskResult(taskId))).code).toBe(-32602);
    expect((await rejection(other.experimental.tasks.cancelTask(taskId))).code).toBe(-32602);
  });

  it('ends a task whose tool fails as failed, and tasks/result gives its isError result', async () => {
    const { CreateTaskResultSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const created = await client.request(
      { method: 'tools/call', params: { name: 'broken_report', arguments: {}, task: {} } },
      CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'The sales database is down; try again later.' }]);
    const task = await client.experimental.tasks.getTask(taskId);
    expect(task.status).toBe('failed');
    expect(task.statusMessage).toBe('The sales database is down; try again later.');
    // A plain call of the same tool answers with the same result.
    const plain = await client.callTool({ name: 'broken_report', arguments: {} });
    expect(plain.isError).toBe(true);
    expect(plain.content).toEqual(result.content);
  });

  it('grants at least one second to a task asked with ttl 0, and reports the ttl granted', async () => {
    const { CreateTaskResultSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const created = await client.request(
      {
        method: 'tools/call',
        params: { name: 'report', arguments: { topic: 'brief', ms: 50 }, task: { ttl: 0 } },
      },
      CreateTaskResultSchema,
    );
    expect(created.task.ttl).toBe(1_000);
    const { taskId } = created.task;
    expect((await client.experimental.tasks.getTask(taskId)).ttl).toBe(1_000);
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result.content).toEqual([{ type: 'text', text: 'report on brief' }]);
  });

  it('cancels a running task: its signal aborts, tasks/result and a second cancel refuse', async () => {
    const created = await client.request(
      { method: 'tools/call', params: { name: 'crawl', arguments: {}, task: {} } },
      (await import('@modelcontextprotocol/sdk/types.js')).CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    expect(cancelled.status).toBe('cancelled');
    const onResult = await rejection(client.experimental.tasks.getTaskResult(taskId));
    expect(onResult.code).toBe(-32602);
    expect(onResult.message).toMatch(/was cancelled/);
    const again = await rejection(client.experimental.tasks.cancelTask(taskId));
    expect(again.code).toBe(-32602);
    expect(again.message).toMatch(/terminal status 'cancelled'/);
  });

  it('sets input_required while the tool asks the user, then completes with the answer', async () => {
    const statuses: string[] = [];
    let result: unknown;
    for await (const message of client.experimental.tasks.callToolStream(
      { name: 'ask_name', arguments: {} },
      CallToolResultSchema,
      { task: {} },
    )) {
      if (message.type === 'taskStatus') statuses.push(message.task.status);
      if (message.type === 'result') result = message.result;
    }
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'hello Ada' }] });
    expect(statuses).toContain('input_required');
  });

  it('refuses bad requests with the specified errors and creates no task', async () => {
    const before = store.size;
    const { CreateTaskResultSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const call = (params: Record<string, unknown>) =>
      rejection(client.request({ method: 'tools/call', params: params as never }, CreateTaskResultSchema));
    expect((await rejection(client.experimental.tasks.getTask('no-such-task'))).code).toBe(-32602);
    expect((await call({ name: 'report', arguments: { topic: 'x' }, task: { ttl: -1 } })).code).toBe(-32602);
    expect((await call({ name: 'report', arguments: { topic: 'x' }, task: { ttl: 1e300 } })).code).toBe(
      -32602,
    );
    expect((await call({ name: 'report', arguments: { topic: 'x' }, task: { ttl: 1.5 } })).code).toBe(-32602);
    expect((await call({ name: 'add', arguments: { a: 1, b: 2 }, task: {} })).code).toBe(-32601);
    expect((await call({ name: 'report', arguments: {}, task: {} })).code).toBe(-32602);
    const denied = await call({ name: 'purge', arguments: {}, task: {} });
    expect(denied.message).toMatch(/denied|not allowed/i);
    expect((await call({ name: 'nope', arguments: {}, task: {} })).code).toBe(-32602);
    expect(store.size).toBe(before);
    // (The SDK client itself refuses a plain call of a required tool, so the request is sent raw.)
    const plain = await rejection(
      client.request(
        { method: 'tools/call', params: { name: 'crawl', arguments: {} } },
        CallToolResultSchema,
      ),
    );
    expect(plain.code).toBe(-32601);
    expect((await rejection(client.experimental.tasks.listTasks('garbage'))).code).toBe(-32602);
  });

  it('reports a task whose process stopped heartbeating as failed, and tasks/result says so', async () => {
    // As if another process had created the task for this session and died: its lease runs out.
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId;
    const lost = await store.create({
      owner: `session:${String(sessionId)}`,
      toolName: 'report',
      ttlMs: 60_000,
      pollIntervalMs: 50,
      leaseMs: 20,
    });
    await new Promise((resolve) => setTimeout(resolve, 40));
    const read = await client.experimental.tasks.getTask(lost.taskId);
    expect(read.status).toBe('failed');
    expect(read.statusMessage).toMatch(/stopped answering \(its lease ran out\)/);
    const error = await rejection(client.experimental.tasks.getTaskResult(lost.taskId));
    expect(error.code).toBe(-32603);
    expect(error.message).toMatch(/failed without a result.*lease ran out/);
  });

  it('still serves plain calls of task-capable tools', async () => {
    const result = await client.callTool({ name: 'report', arguments: { topic: 'plain' } });
    expect(result.content).toEqual([{ type: 'text', text: 'report on plain' }]);
  });
});
