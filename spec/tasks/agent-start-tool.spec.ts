import 'reflect-metadata';
import { Agent } from '../../lib/agents/agent';
import { ActionDeniedError } from '../../lib/errors/action-denied-error';
import { TooManyTasksError } from '../../lib/errors/too-many-tasks-error';
import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { ToolValidationError } from '../../lib/errors/tool-validation-error';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import type { RunContext } from '../../lib/runtime/run-context';
import { InMemoryTaskStore } from '../../lib/tasks/in-memory-task-store';
import type { TaskStore } from '../../lib/tasks/task-store';
import { NativeTool } from '../../lib/tools/native-tool';
import { FlakyTaskStore } from '../fixtures/tasks/flaky-task-store';

function buildAgent(store: TaskStore = new InMemoryTaskStore()): Agent {
  const agent = new Agent({
    card: { name: 'tasks', description: 'Task spec agent', url: 'http://127.0.0.1:0' },
    policy: new CapabilityPolicy({ 'records.delete': 'deny' }),
    taskStore: store,
  });
  agent.addTool(
    new NativeTool({
      name: 'add',
      description: 'Add two integers',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'integer' }, b: { type: 'integer' } },
        required: ['a', 'b'],
      },
      func: ({ a, b }: Record<string, number>) => a + b,
    }),
  );
  agent.addTool(
    new NativeTool({
      name: 'wait',
      description: 'Waits until cancelled',
      inputSchema: {},
      task: 'required',
      func: (_args, context: RunContext) =>
        new Promise((_resolve, reject) =>
          context.signal.addEventListener('abort', () => reject(new Error('stopped'))),
        ),
    }),
  );
  agent.addTool(
    new NativeTool({
      name: 'flaky_store',
      description: 'Returns while its task store refuses writes for a moment',
      inputSchema: {},
      func: () => {
        if (store instanceof FlakyTaskStore) store.fail(['storeResult'], 200);
        return 'stored at last';
      },
    }),
  );
  agent.addTool(
    new NativeTool({
      name: 'rows',
      description: 'Returns 1,000 characters of rows',
      inputSchema: {},
      func: () => 'row;'.repeat(250),
    }),
  );
  agent.addTool(
    new NativeTool({
      name: 'purge',
      description: 'Deletes records',
      capabilities: ['records.delete'],
      func: () => 'gone',
    }),
  );
  return agent;
}

describe('Agent', () => {
  describe('startTool', () => {
    it('returns a task whose result is the tool value, kept in the agent task store', async () => {
      const store = new InMemoryTaskStore();
      const task = await buildAgent(store).startTool('add', { a: 2, b: '3' });
      expect(await task.result()).toBe(5);
      expect(await task.status()).toBe('completed');
      expect(await store.getResult(task.id, 'local')).toEqual({ result: { value: 5 } });
    });

    it('creates no task for a call the policy denies or validation refuses', async () => {
      const store = new InMemoryTaskStore();
      const agent = buildAgent(store);
      await expect(agent.startTool('purge')).rejects.toThrow(ActionDeniedError);
      await expect(agent.startTool('add', { a: 'x', b: 1 })).rejects.toThrow(ToolValidationError);
      expect(store.size).toBe(0);
    });

    it('cancels a running task: its signal aborts and result() rejects with ToolCancelledError', async () => {
      const task = await buildAgent().startTool('wait');
      expect(await task.status()).toBe('working');
      expect(await task.cancel()).toBe(true);
      await expect(task.result()).rejects.toThrow(ToolCancelledError);
      expect(await task.status()).toBe('cancelled');
      expect(await task.cancel()).toBe(false);
    });

    it('gives the tool value from result() when storing it failed for a moment', async () => {
      const store = new FlakyTaskStore();
      const task = await buildAgent(store).startTool('flaky_store', {});
      await expect(task.result()).resolves.toBe('stored at last');
      expect(await task.status()).toBe('completed');
      expect(store.calls.storeResult).toBeGreaterThan(1);
    });

    it('refuses a task with TooManyTasksError while the owner holds its most tasks, all running (none made)', async () => {
      const store = new InMemoryTaskStore({ maxTasksPerOwner: 1 });
      const agent = buildAgent(store);
      const running = await agent.startTool('wait');
      const refused = agent.startTool('wait');
      await expect(refused).rejects.toThrow(TooManyTasksError);
      await expect(refused).rejects.toThrow(
        "Tool 'wait' was not started as a task: this session (or token) already has 1 tasks kept (maxTasksPerOwner), all still running. Wait for one to end or cancel one, then retry; or raise maxTasksPerOwner of the task store.",
      );
      expect(store.size).toBe(1);
      await running.cancel();
      await expect(running.result()).rejects.toThrow(ToolCancelledError);
      const next = await agent.startTool('add', { a: 1, b: 2 });
      expect(await next.result()).toBe(3);
      expect(store.size).toBe(1);
    });

    it('keeps a result too large for the store as a failed task saying so; result() still gives the value', async () => {
      const store = new InMemoryTaskStore({ maxResultBytesPerTask: 800 });
      const task = await buildAgent(store).startTool('rows');
      await expect(task.result()).resolves.toBe('row;'.repeat(250));
      const info = await task.info();
      expect(info.status).toBe('failed');
      expect(info.statusMessage).toBe(
        "The result of tool 'rows' was too large to keep: 1012 bytes, over the task store's 800 bytes per task (maxResultBytesPerTask). The tool did run; return a smaller result (or a link to it), or raise maxResultBytesPerTask of the task store.",
      );
      expect(await store.getResult(task.id, 'local')).toEqual({
        result: {
          error: {
            name: 'TaskResultTooLargeError',
            code: 'TASK_RESULT_TOO_LARGE',
            message: info.statusMessage,
            toolName: 'rows',
            retryable: false,
            bytes: 1012,
            limit: 800,
          },
        },
      });
    });

    it('ends a task with the too-large message alone when even that error is over the bound', async () => {
      const store = new InMemoryTaskStore({ maxResultBytesPerTask: 10 });
      const task = await buildAgent(store).startTool('rows');
      await task.result();
      expect(await task.info()).toMatchObject({
        status: 'failed',
        statusMessage: expect.stringMatching(
          /^The result of tool 'rows' was too large to keep: 1012 bytes, over the task store's 10 bytes/,
        ),
      });
      expect(await store.getResult(task.id, 'local')).toBeUndefined();
    });

    it('keeps the task of a run context in its session', async () => {
      const { RunContext: Context } = await import('../../lib/runtime/run-context');
      const task = await buildAgent().startTool(
        'add',
        { a: 1, b: 1 },
        { context: new Context({ sessionId: 's1' }) },
      );
      await task.result();
      expect((await task.info()).owner).toBe('s1');
    });
  });
});
