import { createClient } from 'redis';
import { SessionStoreDataError } from '../../lib/errors/session-store-data-error';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { createRedisBackend } from '../../lib/redis/index';
import type { RedisBackend } from '../../lib/redis/index';
import { RedisCommands } from '../../lib/redis/redis-commands';
import { redisEventCost, redisStreamCost } from '../../lib/redis/redis-event-cost';
import { RedisEventLog } from '../../lib/redis/redis-event-log';
import { toSessionKeys } from '../../lib/redis/redis-keys';
import { RedisSessionStore } from '../../lib/redis/redis-session-store';
import type { SessionBusMessage } from '../../lib/state/session-bus';
import { describeWithRedis, startRedisServer } from '../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../fixtures/redis/redis-server';
import {
  eventLogContract,
  lateSubscriberContract,
  newKey,
  newRecord,
  sessionBusContract,
  sessionStoreContract,
  waitFor,
} from '../fixtures/state/session-seam-contracts';
import { sessionCapContract } from '../fixtures/state/session-cap-contract';

describeWithRedis('protolink/redis session seams', () => {
  let server: RedisServerHandle;
  let backend: RedisBackend;
  /** A plain client to look at (and tamper with) what the stores wrote. */
  let raw: ReturnType<typeof createClient>;
  let commands: RedisCommands;

  beforeAll(async () => {
    server = await startRedisServer();
    backend = await createRedisBackend({ redis: server.url, keyPrefix: server.keyPrefix });
    raw = createClient({ url: server.url });
    raw.on('error', () => {});
    await raw.connect();
    commands = new RedisCommands(raw as never, 5_000);
  });

  afterAll(async () => {
    await backend?.close();
    raw?.destroy();
    await server?.dispose();
  });

  const keysOf = (key: { sessionId: string; tokenSubject?: string }) => toSessionKeys(server.keyPrefix, key);

  describe('RedisSessionStore', () => {
    sessionStoreContract(
      (idleTimeoutMs) => new RedisSessionStore({ commands, keyPrefix: server.keyPrefix, idleTimeoutMs }),
    );
    let capStores = 0;
    sessionCapContract((idleTimeoutMs) => {
      capStores += 1;
      // A prefix of its own: the caps count every session of a prefix.
      return new RedisSessionStore({
        commands,
        keyPrefix: `${server.keyPrefix}caps${capStores}:`,
        idleTimeoutMs,
      });
    });

    it('keeps a session as a hash under the prefix, its expiry following the idle timeout', async () => {
      const key = newKey('subject');
      await backend.sessions.create(newRecord(key));
      const name = keysOf(key).session;
      expect(name).toBe(`${server.keyPrefix}session:subject:{${key.sessionId}}`);
      expect(await raw.type(name)).toBe('hash');
      const ttl = await raw.pTTL(name);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(backend.sessions.idleTimeoutMs);
      expect(JSON.stringify(await raw.hGetAll(name))).not.toContain('"token"');
    });

    it('treats a session id or subject it could not store as unknown, and refuses to create one', async () => {
      for (const key of [
        { sessionId: 'a{b}' },
        { sessionId: '' },
        { sessionId: 'ok', tokenSubject: 'a:b' },
      ]) {
        await expect(backend.sessions.get(key)).resolves.toBeUndefined();
        await expect(backend.sessions.touch(key)).resolves.toBe(false);
        await expect(backend.sessions.create(newRecord(key))).rejects.toBeInstanceOf(ToolInputError);
      }
    });

    describe('hostile values', () => {
      const readFails = async (key: { sessionId: string; tokenSubject?: string }, reason: RegExp) => {
        const error = await backend.sessions.get(key).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(SessionStoreDataError);
        expect(error).toMatchObject({
          sessionId: key.sessionId,
          code: 'SESSION_STORE_DATA',
          retryable: false,
        });
        expect((error as SessionStoreDataError).reason).toMatch(reason);
      };

      it('is a data error of that session for truncated JSON, a foreign hash or no expiry', async () => {
        const truncated = newKey();
        await backend.sessions.create(newRecord(truncated));
        await raw.hSet(keysOf(truncated).session, 'clientInfo', '{"name":"cut');
        await readFails(truncated, /clientInfo is not JSON/);

        const foreign = newKey();
        await raw.hSet(keysOf(foreign).session, { hello: 'world' });
        await raw.pExpire(keysOf(foreign).session, 60_000);
        await readFails(foreign, /format/);

        const renamed = newKey('subject');
        await backend.sessions.create(newRecord(renamed));
        await raw.hSet(keysOf(renamed).session, 'sessionId', 'another');
        await readFails(renamed, /another session/);

        const eternal = newKey();
        await backend.sessions.create(newRecord(eternal));
        await raw.persist(keysOf(eternal).session);
        await readFails(eternal, /no expiry/);

        const array = newKey();
        await backend.sessions.create(newRecord(array));
        await raw.hSet(keysOf(array).session, 'clientCapabilities', '[1,2]');
        await readFails(array, /not an object/);
      });

      it('is a data error of that session for a key of the wrong type, and others go on', async () => {
        const wrong = newKey();
        await raw.set(keysOf(wrong).session, 'not a hash', { PX: 60_000 });
        await readFails(wrong, /WRONGTYPE/);
        await expect(backend.sessions.touch(wrong)).rejects.toBeInstanceOf(SessionStoreDataError);
        await expect(backend.sessions.update(wrong, { logLevel: 'debug' })).rejects.toBeInstanceOf(
          SessionStoreDataError,
        );
        const fine = newKey();
        await backend.sessions.create(newRecord(fine));
        await expect(backend.sessions.get(fine)).resolves.toMatchObject({ sessionId: fine.sessionId });
      });
    });
  });

  describe('RedisEventLog', () => {
    eventLogContract(
      (options) => new RedisEventLog({ ...options, commands, keyPrefix: server.keyPrefix, keyTtlMs: 60_000 }),
      {
        event: (message, streamId) => redisEventCost(Buffer.byteLength(JSON.stringify(message)), streamId),
        stream: (key, streamId) => redisStreamCost(keysOf(key).streamBase + streamId, streamId),
      },
    );

    /** What the session's log keys take in Redis, as MEMORY USAGE reports it. */
    async function memoryOfLog(key: { sessionId: string; tokenSubject?: string }): Promise<number> {
      let total = 0;
      for (const name of await raw.keys(`${keysOf(key).log}*`)) {
        total += Number(await raw.sendCommand(['MEMORY', 'USAGE', name, 'SAMPLES', '0']));
      }
      return total;
    }

    it.each([
      ['calls of a 500 kB result', 500_000, 1],
      ['calls of a result just over a size class (256 kB + 1)', 262_145, 1],
      ['a stream of 2,100-byte events, one to a node', 2_100, 400],
      ['calls with progress of small events', 300, 5],
    ])('keeps what Redis holds for the session within maxBytes: %s', async (_name, size, perStream) => {
      const maxBytes = 1024 * 1024;
      const log = new RedisEventLog({ commands, keyPrefix: server.keyPrefix, maxBytes, keyTtlMs: 60_000 });
      const key = newKey('subject');
      const text = 'x'.repeat(size);
      for (let call = 0; call < 40; call += 1) {
        const stream = `call-${call}`;
        await log.append(key, stream, {});
        for (let index = 1; index < perStream; index += 1) {
          await log.append(key, stream, {
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { text },
          });
        }
        await log.append(key, stream, { jsonrpc: '2.0', id: call, result: { text } });
      }
      const usage = await log.usage(key);
      const held = await memoryOfLog(key);
      expect(usage.bytes).toBeLessThanOrEqual(maxBytes);
      // Counted as Redis allocates it: never less than Redis holds, so the bound holds in Redis too.
      expect(held).toBeLessThanOrEqual(usage.bytes);
      expect(held).toBeGreaterThan(0);
      await log.deleteSession(key);
    });

    it('counts a stream once, and forgets its cost with its last event', async () => {
      const key = newKey('subject');
      const log = new RedisEventLog({ commands, keyPrefix: server.keyPrefix, maxEvents: 2 });
      const event = { jsonrpc: '2.0', method: 'n' };
      const cost = redisEventCost(Buffer.byteLength(JSON.stringify(event)), 'a');
      const streamCost = (id: string) => redisStreamCost(keysOf(key).streamBase + id, id);
      await log.append(key, 'a', event);
      await log.append(key, 'a', event);
      await expect(log.usage(key)).resolves.toEqual({ events: 2, bytes: 2 * cost + streamCost('a') });
      // Two events of stream 'b' push both of 'a' out: 'a' is gone, its own cost with it.
      await log.append(key, 'b', event);
      await log.append(key, 'b', event);
      await expect(log.usage(key)).resolves.toEqual({ events: 2, bytes: 2 * cost + streamCost('b') });
      expect(await raw.exists(`${keysOf(key).streamBase}a`)).toBe(0);
      expect(await raw.hGet(keysOf(key).log, 's:a')).toBeNull();
    });

    it('replaces, not adds to, the cost left by a stream whose key went away on its own', async () => {
      const key = newKey('subject');
      const log = new RedisEventLog({ commands, keyPrefix: server.keyPrefix });
      const event = { jsonrpc: '2.0', method: 'n' };
      await log.append(key, 'a', event);
      const before = await log.usage(key);
      // The stream's key expires (it is kept alive only by its own use) while its cost and member remain.
      await raw.del(`${keysOf(key).streamBase}a`);
      await log.append(key, 'a', event);
      const after = await log.usage(key);
      expect(after.bytes - before.bytes).toBe(redisEventCost(Buffer.byteLength(JSON.stringify(event)), 'a'));
    });

    it('keeps each stream as a Redis Stream under the session, with counters, all expiring', async () => {
      const key = newKey('subject');
      await backend.events.append(key, 'stream-a', { jsonrpc: '2.0', method: 'n' });
      const keys = keysOf(key);
      expect(keys.streamBase).toBe(`${server.keyPrefix}log:subject:{${key.sessionId}}:stream:`);
      expect(await raw.type(`${keys.streamBase}stream-a`)).toBe('stream');
      expect(await raw.type(keys.log)).toBe('hash');
      expect(await raw.type(keys.order)).toBe('zset');
      for (const name of [keys.log, keys.order, `${keys.streamBase}stream-a`]) {
        expect(await raw.pTTL(name)).toBeGreaterThan(0);
      }
      await backend.events.deleteSession(key);
      expect(await raw.keys(`${server.keyPrefix}log:subject:{${key.sessionId}}*`)).toEqual([]);
    });

    it('refuses a byte bound too small to keep a stream with one event', () => {
      expect(() => new RedisEventLog({ commands, maxBytes: 1_000 })).toThrow(ToolInputError);
      expect(() => new RedisEventLog({ commands, maxBytes: 1_000 })).toThrow(
        /^RedisEventLog maxBytes \(maxEventStoreBytesPerSession when serving with redis\) must be at least \d{4}: on Redis a stream with one event is charged that much .*; got 1000\.$/,
      );
      expect(() => new RedisEventLog({ commands, maxBytes: 8_192 })).not.toThrow();
    });

    it('refuses a stream id it could not store', async () => {
      await expect(backend.events.append(newKey(), 'a:b', {})).rejects.toBeInstanceOf(ToolInputError);
    });

    describe('hostile values', () => {
      it('is a data error of that session for an unreadable event, a foreign entry or counters of the wrong type', async () => {
        const key = newKey();
        const first = await backend.events.append(key, 'stream-a', { jsonrpc: '2.0', method: 'n' });
        const keys = keysOf(key);
        await raw.xAdd(`${keys.streamBase}stream-a`, '0-900', { m: '{"jsonrpc":"2.0","meth' });
        const replayed = backend.events.replayAfter(key, first, async () => {});
        await expect(replayed).rejects.toBeInstanceOf(SessionStoreDataError);

        const foreign = newKey();
        const start = await backend.events.append(foreign, 'stream-a', {});
        await raw.xAdd(`${keysOf(foreign).streamBase}stream-a`, '0-900', { other: 'field' });
        await expect(backend.events.replayAfter(foreign, start, async () => {})).rejects.toMatchObject({
          code: 'SESSION_STORE_DATA',
          sessionId: foreign.sessionId,
        });

        const wrongType = newKey();
        await raw.set(keysOf(wrongType).log, 'x', { PX: 60_000 });
        await expect(backend.events.append(wrongType, 'stream-a', {})).rejects.toBeInstanceOf(
          SessionStoreDataError,
        );

        const badCounter = newKey();
        await raw.hSet(keysOf(badCounter).log, 'sequence', 'not a number');
        await raw.pExpire(keysOf(badCounter).log, 60_000);
        await expect(backend.events.append(badCounter, 'stream-a', {})).rejects.toBeInstanceOf(
          SessionStoreDataError,
        );

        // Another session is untouched by all of this.
        const fine = newKey();
        const id = await backend.events.append(fine, 'stream-a', {});
        await backend.events.append(fine, 'stream-a', { jsonrpc: '2.0', method: 'n' });
        await expect(backend.events.replayAfter(fine, id, async () => {})).resolves.toBe('stream-a');
      });

      it('keeps a foreign order member from breaking the bound checks of other sessions', async () => {
        const key = newKey();
        await raw.zAdd(keysOf(key).order, { score: 0, value: 'garbage' });
        await raw.hSet(keysOf(key).log, 'events', '5000');
        const log = new RedisEventLog({ commands, keyPrefix: server.keyPrefix, maxEvents: 2 });
        await expect(log.append(key, 'stream-a', {})).rejects.toBeInstanceOf(SessionStoreDataError);
        const other = newKey();
        await log.append(other, 'stream-a', {});
        await expect(log.usage(other)).resolves.toMatchObject({ events: 1 });
      });
    });
  });

  describe('RedisSessionBus', () => {
    sessionBusContract(() => backend.bus);
    lateSubscriberContract(() => ({ bus: backend.bus, log: backend.events }));

    it('reports a message that is not a JSON object to onError, for that subscription only', async () => {
      const key = newKey('subject');
      const errors: unknown[] = [];
      const others: unknown[] = [];
      const received: SessionBusMessage[] = [];
      await backend.bus.subscribe(key, (message) => received.push(message), {
        onError: (error) => errors.push(error),
      });
      await backend.bus.subscribe(newKey('subject'), () => undefined, {
        onError: (error) => others.push(error),
      });
      await raw.xAdd(keysOf(key).busLog, '*', { m: '{"truncated' });
      await raw.xAdd(keysOf(key).busLog, '*', { m: '[1]' });
      await raw.publish(keysOf(key).channel, '{"a wake-up":"of an older version"}');
      await backend.bus.publish(key, { ok: true });
      await waitFor(() => received.length === 1 && errors.length === 3);
      for (const error of errors) expect(error).toBeInstanceOf(SessionStoreDataError);
      expect((errors as SessionStoreDataError[]).map((error) => error.reason).sort()).toEqual([
        'a bus message that is not a JSON object',
        'a bus message that is not a JSON object',
        'a bus wake-up that is not a stream entry id',
      ]);
      expect(received).toEqual([{ ok: true }]);
      expect(others).toEqual([]);
    });
  });
});
