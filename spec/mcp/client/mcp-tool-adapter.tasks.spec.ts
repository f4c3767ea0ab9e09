import 'reflect-metadata';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { Agent } from '../../../lib/agents/agent';
import { ToolCancelledError } from '../../../lib/errors/tool-cancelled-error';
import { RunContext } from '../../../lib/runtime/run-context';
import type { AgentServerHandle } from '../../../lib/agents/agent-server-options';
import { startAgentServer } from '../../../lib/server/start-agent-server';
import { InMemoryTaskStore } from '../../../lib/tasks/in-memory-task-store';
import { MCPToolAdapter } from '../../../lib/mcp/client/mcp-tool-adapter';
import { NativeTool } from '../../../lib/tools/native-tool';
import { buildTaskAgent } from '../../fixtures/tasks/task-agent';

/** The SDK's own task-capable example server (tools that require tasks and ask the client through them). */
const EXAMPLE = join(
  dirname(require.resolve('@modelcontextprotocol/sdk/types.js')),
  'examples/server/simpleTaskInteractive.js',
);

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  server.close();
  await once(server, 'close');
  return port;
}

describe('MCPToolAdapter with tasks (against the SDK example server simpleTaskInteractive)', () => {
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    child = spawn(process.execPath, [EXAMPLE], {
      env: { ...process.env, PORT: String(port) },
      stdio: 'pipe',
    });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Starting server')) resolve();
      });
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) =>
        reject(new Error(`example server exited with ${String(code)}: ${output}`)),
      );
    });
    url = `http://localhost:${port}/mcp`;
  });

  afterAll(async () => {
    child.kill('SIGKILL');
    await once(child, 'exit').catch(() => undefined);
  });

  it('lists the remote taskSupport and calls a required-task tool, answering its question through the task', async () => {
    const questions: string[] = [];
    const adapter = new MCPToolAdapter({
      transport: 'http',
      url,
      elicitationHandler: (request) => {
        questions.push(request.message);
        return { action: 'accept', content: { confirm: true } };
      },
    });
    try {
      const tools = await adapter.listTools();
      expect(tools.find((tool) => tool.name === 'confirm_delete')?.taskSupport).toBe('required');
      const tool = await adapter.wrapTool('confirm_delete');
      expect(await tool.call({ filename: 'a.txt' })).toBe("Deleted 'a.txt'");
      expect(questions).toEqual(["Are you sure you want to delete 'a.txt'?"]);
    } finally {
      await adapter.close();
    }
  });

  it('calls a required-task tool that samples the client model, with the same ToolResult as a plain call', async () => {
    const adapter = new MCPToolAdapter({
      transport: 'http',
      url,
      samplingHandler: () => ({
        role: 'assistant',
        content: { type: 'text', text: 'old pond' },
        model: 'spec',
      }),
    });
    try {
      const callable = await adapter.getCallable('write_haiku');
      expect(await callable({ topic: 'frogs' })).toBe('Haiku:\nold pond');
    } finally {
      await adapter.close();
    }
  });
});

describe('MCPToolAdapter with tasks (against a served agent)', () => {
  let server: AgentServerHandle;
  let store: InMemoryTaskStore;

  beforeAll(async () => {
    store = new InMemoryTaskStore();
    const agent = buildTaskAgent();
    agent.addTool(
      new NativeTool({
        name: 'confirm_then_work',
        description: 'Asks for a go-ahead, then works for ms',
        inputSchema: { type: 'object', properties: { ms: { type: 'integer' } }, required: ['ms'] },
        task: 'required',
        func: async ({ ms }: Record<string, unknown>, context: RunContext) => {
          await context.elicit('Go?', {
            type: 'object',
            properties: { go: { type: 'boolean' } },
            required: ['go'],
          });
          await new Promise((resolve) => setTimeout(resolve, Number(ms)));
          return 'worked';
        },
      }),
    );
    server = await startAgentServer(agent, { taskStore: store, taskPollIntervalMs: 20 });
  });

  afterAll(async () => {
    await server.close();
  });

  it('runs optional-task tools as tasks when asked, forwarding progress to the caller agent', async () => {
    const adapter = new MCPToolAdapter({ transport: 'http', url: server.mcpUrl, runAsTask: 'supported' });
    try {
      const local = new Agent({
        card: { name: 'caller', description: 'Calls remote tools', url: 'http://127.0.0.1:0' },
      });
      local.addTool(await adapter.wrapTool('report'));
      const progress: number[] = [];
      local.on('tool-progress', (event) => {
        progress.push(event.progress);
      });
      expect(await local.callTool('report', { topic: 'remote', ms: 60 })).toBe('report on remote');
      expect(progress).toEqual([0, 2]);
      expect((await allTasks(store)).some((task) => task.toolName === 'report')).toBe(true);
    } finally {
      await adapter.close();
    }
  });

  it('rejects with the tool error of a task that failed, as a plain call would', async () => {
    const adapter = new MCPToolAdapter({ transport: 'http', url: server.mcpUrl, runAsTask: 'supported' });
    try {
      const tool = await adapter.wrapTool('broken_report');
      await expect(tool.call({})).rejects.toThrow(/The sales database is down; try again later\./);
      expect(
        (await allTasks(store)).some((task) => task.toolName === 'broken_report' && task.status === 'failed'),
      ).toBe(true);
    } finally {
      await adapter.close();
    }
  });

  it('waits past maxTotalTimeoutMs for a task that asked the user and then works on, bounded by the task', async () => {
    const adapter = new MCPToolAdapter({
      transport: 'http',
      url: server.mcpUrl,
      timeoutMs: 2_000,
      maxTotalTimeoutMs: 300,
      elicitationHandler: () => ({ action: 'accept', content: { go: true } }),
    });
    try {
      const tool = await adapter.wrapTool('confirm_then_work');
      // The work after the answer outlasts maxTotalTimeoutMs three times over: the wait starts over.
      expect(await tool.call({ ms: 900 })).toBe('worked');
    } finally {
      await adapter.close();
    }
  });

  it("polls a long task without gathering listeners on the call's signal", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(`${warning.name}: ${warning.message}`);
    };
    process.on('warning', onWarning);
    const adapter = new MCPToolAdapter({ transport: 'http', url: server.mcpUrl });
    try {
      const tool = await adapter.wrapTool('crawl');
      const context = new RunContext();
      const before = store.size;
      const call = tool.call({}, { context });
      await waitFor(() => store.size > before);
      // At a 20 ms poll interval, some 25 polls: one listener each would pass Node's limit of 10.
      await new Promise((resolve) => setTimeout(resolve, 600));
      context.cancel('stop');
      await expect(call).rejects.toThrow(ToolCancelledError);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => /listener/i.test(warning))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await adapter.close();
    }
  });

  it('sends tasks/cancel when the caller run is cancelled', async () => {
    const adapter = new MCPToolAdapter({ transport: 'http', url: server.mcpUrl });
    try {
      const tool = await adapter.wrapTool('crawl');
      const context = new RunContext();
      const before = store.size;
      const call = tool.call({}, { context });
      await waitFor(() => store.size > before);
      context.cancel('stop');
      await expect(call).rejects.toThrow(ToolCancelledError);
      await waitFor(async () => {
        const tasks = await allTasks(store);
        return tasks.some((task) => task.toolName === 'crawl' && task.status === 'cancelled');
      });
    } finally {
      await adapter.close();
    }
  });
});

/** Every task the store holds (the spec looks inside: tasks of the adapter's session have an owner it cannot name). */
async function allTasks(store: InMemoryTaskStore) {
  const internal = store as unknown as {
    tasks: Map<string, { record: { toolName: string; status: string } }>;
  };
  return [...internal.tasks.values()].map((entry) => entry.record);
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
