import { createClient } from 'redis';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { ToolRuntimeError } from '../../lib/errors/tool-runtime-error';
import { SessionStoreUnavailableError, createRedisBackend } from '../../lib/redis/index';
import type { RedisBackend } from '../../lib/redis/index';
import { describeWithRedis, startRedisServer } from '../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../fixtures/redis/redis-server';
import { newKey, newRecord, waitFor } from '../fixtures/state/session-seam-contracts';

async function failureOf(pending: Promise<unknown>): Promise<SessionStoreUnavailableError> {
  const error = await pending.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SessionStoreUnavailableError);
  expect(error).toBeInstanceOf(ToolRuntimeError);
  return error as SessionStoreUnavailableError;
}

describe('createRedisBackend', () => {
  it('refuses a URL that is not a Redis URL, not retryable, without the password', async () => {
    for (const url of ['not a url', 'http://127.0.0.1:6379', 'https://user:hunter2@example.com']) {
      const error = await failureOf(createRedisBackend({ redis: url }));
      expect(error.message).toMatch(/^session store unavailable: .* is not a redis:\/\/ or rediss:\/\/ URL$/);
      expect(error.message).not.toContain('hunter2');
      expect(error).toMatchObject({ code: 'SESSION_STORE_UNAVAILABLE', status: 503, retryable: false });
    }
  });

  it('fails fast with session store unavailable when nothing listens', async () => {
    const { createServer } = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const error = await failureOf(createRedisBackend({ redis: `redis://127.0.0.1:${port}` }));
    expect(error.message).toMatch(/^session store unavailable: .*ECONNREFUSED/);
    expect(error).toMatchObject({ retryable: true, status: 503 });
  });

  it('refuses a task store bound that is not valid before connecting', async () => {
    await expect(
      createRedisBackend({ redis: 'redis://127.0.0.1:1', tasks: { maxTasksPerOwner: 0 } }),
    ).rejects.toThrow(new ToolInputError('maxTasksPerOwner must be a whole number >= 1, got 0.'));
    await expect(
      createRedisBackend({
        redis: 'redis://127.0.0.1:1',
        tasks: { maxResultBytesPerTask: 64 * 1024 * 1024 },
      }),
    ).rejects.toThrow(
      'maxResultBytesPerTask (67108864) must not exceed maxResultBytesPerOwner (33554432): a result that size could never be kept.',
    );
  });

  it('refuses a key prefix with braces', async () => {
    await expect(
      createRedisBackend({ redis: 'redis://127.0.0.1:1', keyPrefix: 'a{b}' }),
    ).rejects.toMatchObject({
      code: 'TOOL_INPUT',
    });
  });
});

describeWithRedis('createRedisBackend with a node-redis client', () => {
  let server: RedisServerHandle;

  beforeAll(async () => {
    server = await startRedisServer();
  });

  afterAll(async () => {
    await server?.dispose();
  });

  it('uses the given client, subscribes on a duplicate, and never closes the given client', async () => {
    const client = createClient({ url: server.url });
    client.on('error', () => {});
    const backend = await createRedisBackend({ redis: client, keyPrefix: server.keyPrefix });
    expect(client.isReady).toBe(true);
    const key = newKey('subject');
    await backend.sessions.create(newRecord(key));
    const received: unknown[] = [];
    await backend.bus.subscribe(key, (message) => received.push(message));
    await backend.bus.publish(key, { n: 1 });
    await waitFor(() => received.length === 1);
    await backend.close();
    expect(client.isReady).toBe(true);
    expect(await client.exists(`${server.keyPrefix}session:subject:{${key.sessionId}}`)).toBe(1);
    client.destroy();
  });
});

describeWithRedis(
  'createRedisBackend when redis-server goes away',
  () => {
    let server: RedisServerHandle;
    let backend: RedisBackend;

    beforeAll(async () => {
      server = await startRedisServer();
      backend = await createRedisBackend({
        redis: server.url,
        keyPrefix: server.keyPrefix,
        commandTimeoutMs: 2_000,
      });
    });

    afterAll(async () => {
      await backend?.close();
      await server?.dispose();
    });

    it('reports session store unavailable while it is down, and recovers by itself when it is back', async () => {
      const key = newKey('subject');
      await backend.sessions.create(newRecord(key));
      const received: unknown[] = [];
      await backend.bus.subscribe(key, (message) => received.push(message));

      await server.stop();
      for (const pending of [
        backend.sessions.get(key),
        backend.sessions.touch(key),
        backend.events.append(key, 'stream-a', {}),
        backend.bus.publish(key, { n: 0 }),
      ]) {
        const error = await failureOf(pending);
        expect(error.message).toMatch(/^session store unavailable: /);
        expect(error).toMatchObject({ code: 'SESSION_STORE_UNAVAILABLE', status: 503, retryable: true });
      }

      // Nothing was saved (no persistence): the data is gone, the connections come back on their own.
      await server.restart();
      await waitFor(async () => {
        try {
          await backend.sessions.get(key);
          return true;
        } catch {
          return false;
        }
      }, 15_000);
      await expect(backend.sessions.get(key)).resolves.toBeUndefined();
      await backend.sessions.create(newRecord(key));
      await expect(backend.sessions.get(key)).resolves.toMatchObject({ sessionId: key.sessionId });
      const id = await backend.events.append(key, 'stream-a', {});
      await expect(backend.events.streamOf(key, id)).resolves.toBe('stream-a');
      // The subscriber connection subscribes again after its reconnect.
      await waitFor(async () => {
        await backend.bus.publish(key, { n: 1 });
        return received.length > 0;
      }, 15_000);
      expect(received[0]).toEqual({ n: 1 });
    });
  },
  { ownServer: true },
);
