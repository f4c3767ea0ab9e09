import { ToolInputError } from '../../lib/errors/tool-input-error';
import { InMemoryTaskStore } from '../../lib/tasks/in-memory-task-store';
import type { CreateTaskInput } from '../../lib/tasks/task-store';

const input = (owner = 'session-a', overrides: Partial<CreateTaskInput> = {}): CreateTaskInput => ({
  owner,
  toolName: 'report',
  ttlMs: 60_000,
  pollIntervalMs: 100,
  leaseMs: 10_000,
  ...overrides,
});

describe('InMemoryTaskStore', () => {
  describe('create and get', () => {
    it('creates a working task that only its owner can read', async () => {
      const store = new InMemoryTaskStore();
      const task = await store.create(input());
      expect(task).toMatchObject({
        owner: 'session-a',
        toolName: 'report',
        status: 'working',
        ttl: 60_000,
        pollInterval: 100,
      });
      expect(await store.get(task.taskId, 'session-a')).toEqual(task);
      expect(await store.get(task.taskId, 'session-b')).toBeNull();
      expect(await store.get('no-such-task', 'session-a')).toBeNull();
    });

    it('forgets a task once its ttl passed', async () => {
      const store = new InMemoryTaskStore();
      const task = await store.create(input('a', { ttlMs: 20 }));
      await new Promise((resolve) => setTimeout(resolve, 40));
      expect(await store.get(task.taskId, 'a')).toBeNull();
      expect(store.size).toBe(0);
    });

    it('marks a task whose lease ran out as failed with a clear message', async () => {
      const store = new InMemoryTaskStore();
      const task = await store.create(input('a', { leaseMs: 10 }));
      await new Promise((resolve) => setTimeout(resolve, 30));
      const read = await store.get(task.taskId, 'a');
      expect(read?.status).toBe('failed');
      expect(read?.statusMessage).toMatch(/stopped answering.*lease ran out/);
    });

    it('keeps a task working while it is heartbeaten', async () => {
      const store = new InMemoryTaskStore();
      const task = await store.create(input('a', { leaseMs: 30 }));
      for (let beat = 0; beat < 3; beat++) {
        await new Promise((resolve) => setTimeout(resolve, 15));
        await store.heartbeat(task.taskId, 'a', 30);
      }
      expect((await store.get(task.taskId, 'a'))?.status).toBe('working');
    });
  });

  describe('status and result (compare-and-set)', () => {
    it('never writes after a terminal status', async () => {
      const store = new InMemoryTaskStore();
      const task = await store.create(input());
      expect((await store.updateStatus(task.taskId, 'session-a', 'input_required'))?.status).toBe(
        'input_required',
      );
      expect(
        (await store.updateStatus(task.taskId, 'session-a', 'cancelled', 'by the client'))?.statusMessage,
      ).toBe('by the client');
      expect(await store.storeResult(task.taskId, 'session-a', 'completed', { late: true })).toBeNull();
      expect(await store.updateStatus(task.taskId, 'session-a', 'working')).toBeNull();
      expect(await store.getResult(task.taskId, 'session-a')).toBeUndefined();
      expect((await store.get(task.taskId, 'session-a'))?.status).toBe('cancelled');
    });

    it('stores a result once, for its owner only', async () => {
      const store = new InMemoryTaskStore();
      const task = await store.create(input());
      expect(await store.storeResult(task.taskId, 'session-b', 'completed', 1)).toBeNull();
      expect((await store.storeResult(task.taskId, 'session-a', 'completed', { value: 1 }))?.status).toBe(
        'completed',
      );
      expect(await store.storeResult(task.taskId, 'session-a', 'failed', 2)).toBeNull();
      expect(await store.getResult(task.taskId, 'session-a')).toEqual({ result: { value: 1 } });
    });

    it('tells watchers of every change', async () => {
      const store = new InMemoryTaskStore();
      const task = await store.create(input());
      const seen: number[] = [];
      const unwatch = store.watch(task.taskId, () => seen.push(1));
      await store.updateStatus(task.taskId, 'session-a', 'input_required');
      unwatch();
      await store.updateStatus(task.taskId, 'session-a', 'working');
      expect(seen).toHaveLength(1);
    });
  });

  describe('list', () => {
    it('pages 1,000 tasks of one owner, each exactly once, and none of another owner', async () => {
      const store = new InMemoryTaskStore();
      const created = new Set<string>();
      for (let index = 0; index < 1000; index++) {
        created.add((await store.create(input('a'))).taskId);
        if (index % 10 === 0) await store.create(input('b'));
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await store.list('a', cursor, 64);
        seen.push(...page.tasks.map((task) => task.taskId));
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined);
      expect(pages).toBe(16);
      expect(seen).toHaveLength(1000);
      expect(new Set(seen)).toEqual(created);
    });

    it('refuses a cursor it never gave', async () => {
      await expect(new InMemoryTaskStore().list('a', 'not-a-cursor')).rejects.toThrow(ToolInputError);
    });
  });
});
