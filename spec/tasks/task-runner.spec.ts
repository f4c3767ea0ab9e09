import { InMemoryTaskStore } from '../../lib/tasks/in-memory-task-store';
import { SHUTDOWN_TASK_MESSAGE, TaskRunner } from '../../lib/tasks/task-runner';
import type { StartTaskOptions } from '../../lib/tasks/task-runner';
import type { TaskStore } from '../../lib/tasks/task-store';
import { FlakyTaskStore } from '../fixtures/tasks/flaky-task-store';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A task whose tool runs `body` (given the run's signal) once the task is created. */
function taskOptions(
  body: (signal: AbortSignal) => Promise<unknown>,
  owner = 'owner',
): StartTaskOptions & { controller: AbortController } {
  const controller = new AbortController();
  return {
    owner,
    toolName: 'report',
    ttlMs: 60_000,
    controller,
    execute: async (onLaunch) => {
      await onLaunch('report');
      return body(controller.signal);
    },
    settle: (outcome) =>
      'value' in outcome
        ? { status: 'completed', result: { value: outcome.value } }
        : { status: 'failed', result: { error: String(outcome.error) }, statusMessage: 'it failed' },
  };
}

/** A tool body that runs until its signal aborts, then rejects with the abort's reason. */
const untilAborted = (signal: AbortSignal) =>
  new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));

async function statusOf(store: TaskStore, taskId: string) {
  return store.get(taskId, 'owner');
}

describe('TaskRunner', () => {
  describe('close', () => {
    it('aborts every running task and records it failed at once, saying the server shut down', async () => {
      const store = new InMemoryTaskStore();
      const runner = new TaskRunner({ store, leaseMs: 60_000 });
      const first = taskOptions(untilAborted);
      const second = taskOptions(untilAborted);
      const tasks = [await runner.start(first), await runner.start(second)];
      const startedAt = Date.now();
      await runner.close();
      expect(Date.now() - startedAt).toBeLessThan(500);
      for (const [index, options] of [first, second].entries()) {
        expect(options.controller.signal.aborted).toBe(true);
        expect((options.controller.signal.reason as Error).message).toBe(SHUTDOWN_TASK_MESSAGE);
        const record = await statusOf(store, tasks[index].record.taskId);
        expect(record).toMatchObject({ status: 'failed', statusMessage: SHUTDOWN_TASK_MESSAGE });
        await expect(tasks[index].run).rejects.toThrow(SHUTDOWN_TASK_MESSAGE);
      }
      // The runs that ended on the abort wrote nothing after it.
      expect(await store.getResult(tasks[0].record.taskId, 'owner')).toBeUndefined();
    });

    it('refuses tasks started after it', async () => {
      const runner = new TaskRunner({ store: new InMemoryTaskStore() });
      await runner.close();
      await expect(runner.start(taskOptions(async () => 1))).rejects.toThrow(/the server is shutting down/);
    });

    it('returns within about a second when the store does not answer', async () => {
      const store = new FlakyTaskStore();
      const runner = new TaskRunner({ store, leaseMs: 60_000 });
      const options = taskOptions(untilAborted);
      await runner.start(options);
      store.hang(['updateStatus', 'storeResult']);
      const startedAt = Date.now();
      await runner.close();
      expect(Date.now() - startedAt).toBeLessThan(2_000);
      expect(options.controller.signal.aborted).toBe(true);
    });
  });

  describe('cancelOwned', () => {
    it("cancels and aborts the owner's running tasks only, keeping an ended one's outcome", async () => {
      const store = new InMemoryTaskStore();
      const runner = new TaskRunner({ store, leaseMs: 60_000 });
      const mine = [taskOptions(untilAborted, 'session:a'), taskOptions(untilAborted, 'session:a')];
      const theirs = taskOptions(untilAborted, 'session:b');
      const done = await runner.start(taskOptions(async () => 'finished', 'session:a'));
      await done.run;
      const started = await Promise.all(mine.map((options) => runner.start(options)));
      const other = await runner.start(theirs);
      await runner.cancelOwned('session:a', 'The session ended.');
      for (const [index, options] of mine.entries()) {
        expect((options.controller.signal.reason as Error).message).toBe('The session ended.');
        await expect(store.get(started[index]!.record.taskId, 'session:a')).resolves.toMatchObject({
          status: 'cancelled',
          statusMessage: 'The session ended.',
        });
      }
      expect(theirs.controller.signal.aborted).toBe(false);
      await expect(store.get(done.record.taskId, 'session:a')).resolves.toMatchObject({
        status: 'completed',
      });
      await expect(store.get(other.record.taskId, 'session:b')).resolves.toMatchObject({ status: 'working' });
      await runner.close();
    });
  });

  describe('start', () => {
    it('stores the result once the store recovers, and the run gives the tool value', async () => {
      const store = new FlakyTaskStore();
      const runner = new TaskRunner({ store, leaseMs: 60_000, pollIntervalMs: 50 });
      const started = await runner.start(
        taskOptions(async () => {
          store.fail(['storeResult'], 300);
          return 42;
        }),
      );
      await expect(started.run).resolves.toBe(42);
      expect(store.calls.storeResult).toBeGreaterThan(1);
      expect((await statusOf(store, started.record.taskId))?.status).toBe('completed');
      expect(await store.getResult(started.record.taskId, 'owner')).toEqual({ result: { value: 42 } });
    });

    it('keeps the lease alive while it retries storing the result', async () => {
      const store = new FlakyTaskStore();
      // Storing fails for three times the lease: without heartbeats meanwhile, the task would be lost.
      const runner = new TaskRunner({ store, leaseMs: 600, pollIntervalMs: 100 });
      const started = await runner.start(
        taskOptions(async () => {
          store.fail(['storeResult'], 1_800);
          return 'done';
        }),
      );
      await expect(started.run).resolves.toBe('done');
      const record = await statusOf(store, started.record.taskId);
      expect(record?.status).toBe('completed');
    });

    it('aborts a run whose lease ran out without a renewal (the store unreachable)', async () => {
      const store = new FlakyTaskStore();
      const runner = new TaskRunner({ store, leaseMs: 600, pollIntervalMs: 100 });
      const options = taskOptions(untilAborted);
      const started = await runner.start(options);
      store.hang(['get', 'heartbeat']);
      const until = Date.now() + 5_000;
      while (!options.controller.signal.aborted && Date.now() < until) await sleep(20);
      expect(options.controller.signal.aborted).toBe(true);
      expect((options.controller.signal.reason as Error).message).toMatch(
        /could not be reached for 600 ms \(its lease ran out\)/,
      );
      store.recover();
      await expect(started.run).rejects.toThrow(/its lease ran out/);
      // Every process reads it as lost, this one included.
      expect((await statusOf(store, started.record.taskId))?.status).toBe('failed');
    });

    it('keeps a run going while a failing heartbeat is renewed within the lease', async () => {
      const store = new FlakyTaskStore();
      const runner = new TaskRunner({ store, leaseMs: 1_500, pollIntervalMs: 100 });
      const options = taskOptions(async (signal) => {
        store.fail(['get', 'heartbeat'], 500);
        await sleep(2_000);
        return signal.aborted ? 'aborted' : 'finished';
      });
      const started = await runner.start(options);
      await expect(started.run).resolves.toBe('finished');
      expect((await statusOf(store, started.record.taskId))?.status).toBe('completed');
    });
  });
});
