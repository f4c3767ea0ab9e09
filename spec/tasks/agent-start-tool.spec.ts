import 'reflect-metadata';
import { Agent } from '../../lib/agents/agent';
import { ActionDeniedError } from '../../lib/errors/action-denied-error';
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
