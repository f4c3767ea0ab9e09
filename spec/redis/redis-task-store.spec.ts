import { createRedisBackend } from '../../lib/redis/index';
import type { RedisBackend } from '../../lib/redis/index';
import { describeWithRedis, startRedisServer } from '../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../fixtures/redis/redis-server';
import { taskInput, taskStoreContract } from '../fixtures/tasks/task-store-contract';

describeWithRedis('RedisTaskStore', () => {
  let server: RedisServerHandle;
  let backend: RedisBackend;

  beforeAll(async () => {
    server = await startRedisServer();
    backend = await createRedisBackend({ redis: server.url, keyPrefix: server.keyPrefix });
  });

  afterAll(async () => {
    await backend?.close();
    await server?.dispose();
  });

  taskStoreContract(() => backend.tasks);

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
