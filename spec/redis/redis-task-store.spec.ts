import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { TooManyTasksError } from '../../lib/errors/too-many-tasks-error';
import { RedisCommands, RedisTaskStore, createRedisBackend } from '../../lib/redis/index';
import type { RedisBackend, RedisClientLike } from '../../lib/redis/index';
import type { TaskStoreLimits } from '../../lib/tasks/task-store-limits';
import { describeWithRedis, startRedisServer } from '../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../fixtures/redis/redis-server';
import { taskInput, taskStoreContract } from '../fixtures/tasks/task-store-contract';
import { taskStoreBoundsContract } from '../fixtures/tasks/task-store-bounds-contract';

describeWithRedis('RedisTaskStore', () => {
  let server: RedisServerHandle;
  let backend: RedisBackend;
  let raw: ReturnType<typeof createClient>;
  let commands: RedisCommands;

  beforeAll(async () => {
    server = await startRedisServer();
    backend = await createRedisBackend({ redis: server.url, keyPrefix: server.keyPrefix });
    raw = createClient({ url: server.url });
    await raw.connect();
    commands = new RedisCommands(raw as unknown as RedisClientLike, 5_000);
  });

  afterAll(async () => {
    raw?.destroy();
    await backend?.close();
    await server?.dispose();
  });

  /** A store with these limits under a key prefix of its own (its totals are its own). */
  const boundedStore = (limits: TaskStoreLimits, keyPrefix = `${server.keyPrefix}${randomUUID()}:`) =>
    new RedisTaskStore({ commands, keyPrefix, ...limits });

  taskStoreContract(() => backend.tasks);
  taskStoreBoundsContract(async (limits) => boundedStore(limits));

  it('holds the bounds over the key prefix for every process sharing it', async () => {
    const keyPrefix = `${server.keyPrefix}${randomUUID()}:`;
    const other = createClient({ url: server.url });
    await other.connect();
    try {
      const here = boundedStore({ maxTasks: 2 }, keyPrefix);
      const there = new RedisTaskStore({
        commands: new RedisCommands(other as unknown as RedisClientLike, 5_000),
        keyPrefix,
        maxTasks: 2,
      });
      await here.create(taskInput('session:a'));
      await there.create(taskInput('session:b'));
      await expect(here.create(taskInput('session:c'))).rejects.toThrow(TooManyTasksError);
      await expect(there.create(taskInput('session:d'))).rejects.toMatchObject({ bound: 'maxTasks' });
      // Another prefix (another agent on the same Redis) has bounds of its own.
      expect((await boundedStore({ maxTasks: 2 }).create(taskInput('session:a'))).status).toBe('working');
    } finally {
      other.destroy();
    }
  });

  it("bounds what Redis holds for an owner's results (their keys' MEMORY USAGE), not only their JSON", async () => {
    const keyPrefix = `${server.keyPrefix}${randomUUID()}:`;
    const store = boundedStore({ maxResultBytesPerOwner: 1024 * 1024 }, keyPrefix);
    const rows = 'row;'.repeat(25_000);
    for (let index = 0; index < 40; index++) {
      const task = await store.create(taskInput('session:big'));
      await store.storeResult(task.taskId, 'session:big', 'completed', {
        content: [{ type: 'text', text: rows }],
      });
    }
    let held = 0;
    for await (const keys of raw.scanIterator({ MATCH: `${keyPrefix}*`, COUNT: 1000 })) {
      for (const key of [keys].flat()) held += (await raw.memoryUsage(key)) ?? 0;
    }
    // 40 results of 100 kB were stored; about ten fit the bound (what Redis allocates is at most a quarter more).
    expect(held).toBeGreaterThan(1_000_000);
    expect(held).toBeLessThan(1.3 * 1024 * 1024);
    expect((await store.list('session:big')).tasks).toHaveLength(10);
  });

  it("expires an owner's ledger with its tasks, and frees the prefix's count once they expired", async () => {
    const keyPrefix = `${server.keyPrefix}${randomUUID()}:`;
    const store = boundedStore({ maxTasks: 2 }, keyPrefix);
    await store.create(taskInput('session:brief', { ttlMs: 1_000 }));
    await store.create(taskInput('session:brief', { ttlMs: 1_000 }));
    for (const suffix of [':live', ':bytes']) {
      const left = await raw.pTTL(`${keyPrefix}tasks:{session:brief}${suffix}`);
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThanOrEqual(1_000);
    }
    expect(await raw.zCard(`${keyPrefix}tasks:live`)).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await raw.exists(`${keyPrefix}tasks:{session:brief}:live`)).toBe(0);
    expect((await store.create(taskInput('session:next'))).status).toBe('working');
    expect(await raw.zRange(`${keyPrefix}tasks:live`, 0, -1)).toHaveLength(1);
  });

  it('keeps a task under the backend prefix, expiring with its ttl', async () => {
    const task = await backend.tasks.create(taskInput('session:s1', { ttlMs: 5_000 }));
    const key = `${server.keyPrefix}task:{session:s1}:${task.taskId}`;
    const { createClient } = await import('redis');
    const raw = createClient({ url: server.url });
    await raw.connect();
    try {
      expect(await raw.type(key)).toBe('hash');
      const left = await raw.pTTL(key);
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThanOrEqual(5_000);
      expect(await raw.zScore(`${server.keyPrefix}tasks:{session:s1}`, task.taskId)).not.toBeNull();
    } finally {
      raw.destroy();
    }
  });

  it('expires the owner index and sequence no earlier than the longest-lived task, and never with a task without ttl', async () => {
    const index = (owner: string) => `${server.keyPrefix}tasks:{${owner}}`;
    const { createClient } = await import('redis');
    const raw = createClient({ url: server.url });
    await raw.connect();
    try {
      await backend.tasks.create(taskInput('session:short', { ttlMs: 2_000 }));
      for (const key of [index('session:short'), `${index('session:short')}:seq`]) {
        const left = await raw.pTTL(key);
        expect(left).toBeGreaterThan(0);
        expect(left).toBeLessThanOrEqual(2_000);
      }
      // A longer-lived task extends them; a shorter one that follows never shortens them.
      await backend.tasks.create(taskInput('session:short', { ttlMs: 9_000 }));
      await backend.tasks.create(taskInput('session:short', { ttlMs: 1_000 }));
      for (const key of [index('session:short'), `${index('session:short')}:seq`]) {
        expect(await raw.pTTL(key)).toBeGreaterThan(8_000);
      }
      await backend.tasks.create(taskInput('session:kept', { ttlMs: null }));
      await backend.tasks.create(taskInput('session:kept', { ttlMs: 1_000 }));
      expect(await raw.pTTL(index('session:kept'))).toBe(-1);
      expect(await raw.pTTL(`${index('session:kept')}:seq`)).toBe(-1);
    } finally {
      raw.destroy();
    }
  });
});
