import 'reflect-metadata';
import { Agent } from '../../../../lib/agents/agent';
import type { RunContext } from '../../../../lib/runtime/run-context';
import type { AgentServerHandle } from '../../../../lib/agents/agent-server-options';
import { startAgentServer } from '../../../../lib/server/start-agent-server';
import { NativeTool } from '../../../../lib/tools/native-tool';
import { MCP_HEADERS, rawRequest } from '../../../fixtures/serve/http-helpers';

describe('served tasks over stateless HTTP (maxConcurrentStatelessCalls)', () => {
  let server: AgentServerHandle;
  let release: () => void = () => undefined;
  let running = 0;

  beforeAll(async () => {
    const agent = new Agent({
      card: {
        name: 'stateless-tasks',
        description: 'Tasks on a stateless server',
        url: 'http://127.0.0.1:0',
      },
    });
    agent.addTool(
      new NativeTool({
        name: 'hold',
        description: 'Runs until the spec releases it',
        inputSchema: {},
        task: 'optional',
        func: async (_args, context: RunContext) => {
          running++;
          try {
            await new Promise<void>((resolve) => {
              const previous = release;
              release = () => {
                previous();
                resolve();
              };
              context.signal.addEventListener('abort', () => resolve(), { once: true });
            });
          } finally {
            running--;
          }
          return 'released';
        },
      }),
    );
    server = await startAgentServer(agent, {
      sessionMode: 'stateless',
      token: 'spec-token',
      maxConcurrentStatelessCalls: 2,
      taskPollIntervalMs: 20,
    });
  });

  afterAll(async () => {
    release();
    await server.close();
  });

  let nextId = 1;
  const post = (params: Record<string, unknown>, method = 'tools/call') =>
    rawRequest({
      port: server.port,
      headers: { ...MCP_HEADERS, authorization: 'Bearer spec-token' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    });

  const waitFor = async (check: () => boolean): Promise<void> => {
    const until = Date.now() + 5_000;
    while (!check()) {
      if (Date.now() > until) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it('holds a slot of the shared gate for every running task, and refuses task and plain calls beyond it', async () => {
    const first = await post({ name: 'hold', arguments: {}, task: {} });
    const second = await post({ name: 'hold', arguments: {}, task: {} });
    expect(first.json.result.task.status).toBe('working');
    expect(second.json.result.task.status).toBe('working');
    await waitFor(() => running === 2);
    const third = await post({ name: 'hold', arguments: {}, task: {} });
    expect(third.json.error.code).toBe(-32029);
    expect(third.json.error.message).toMatch(/Too many concurrent tool calls on this server \(limit 2\)/);
    const plain = await post({ name: 'hold', arguments: {} });
    expect(plain.json.error.code).toBe(-32029);
    expect(running).toBe(2);
    release();
    const taskId = first.json.result.task.taskId as string;
    const result = await post({ taskId }, 'tasks/result');
    expect(result.json.result.content).toEqual([{ type: 'text', text: 'released' }]);
    await waitFor(() => running === 0);
    // The slots are free again once the runs ended.
    await new Promise((resolve) => setImmediate(resolve));
    const again = await post({ name: 'hold', arguments: {}, task: {} });
    expect(again.json.result.task.status).toBe('working');
    release();
  });
});

describe('served tasks over stateless HTTP without a token', () => {
  let server: AgentServerHandle;

  beforeAll(async () => {
    const agent = new Agent({
      card: { name: 'ownerless', description: 'Nobody could own a task here', url: 'http://127.0.0.1:0' },
    });
    agent.addTool(
      new NativeTool({
        name: 'report',
        description: 'Could run as a task',
        inputSchema: {},
        task: 'optional',
        func: () => 'done',
      }),
    );
    server = await startAgentServer(agent, { sessionMode: 'stateless' });
  });

  afterAll(async () => {
    await server.close();
  });

  const post = (id: number, method: string, params: Record<string, unknown>) =>
    rawRequest({
      port: server.port,
      headers: MCP_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });

  it('does not declare tasks (nobody could read one back) and refuses a task call, while plain calls run', async () => {
    const initialized = await post(1, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'spec', version: '1.0.0' },
    });
    expect(initialized.json.result.capabilities.tools).toEqual({});
    expect(initialized.json.result.capabilities.tasks).toBeUndefined();
    // A client that asks anyway is refused by the SDK, as by any server without the capability.
    const refused = await post(2, 'tools/call', { name: 'report', arguments: {}, task: {} });
    expect(refused.json.error.message).toMatch(/does not support task creation/);
    // A plain call of the same tool still runs.
    const plain = await post(3, 'tools/call', { name: 'report', arguments: {} });
    expect(plain.json.result.content).toEqual([{ type: 'text', text: 'done' }]);
    const get = await post(4, 'tasks/get', { taskId: 'anything' });
    expect(get.json.error.code).toBe(-32601);
  });
});
