import { createClient } from 'redis';
import { SessionBusMessageTooLargeError } from '../../lib/errors/session-bus-message-too-large-error';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import type { RedisClientLike } from '../../lib/state/redis-client-like';
import { RedisCommands } from '../../lib/redis/redis-commands';
import { redisBusEntryCost, redisBusLogCost } from '../../lib/redis/redis-event-cost';
import { RedisEventLog } from '../../lib/redis/redis-event-log';
import { toBudgetKeys, toSessionKeys } from '../../lib/redis/redis-keys';
import { RedisSessionBus } from '../../lib/redis/redis-session-bus';
import type { RedisSessionBusOptions } from '../../lib/redis/redis-session-bus';
import type { SessionBusMessage } from '../../lib/state/session-bus';
import type { SessionKey } from '../../lib/state/session-key';
import { describeWithRedis, startRedisServer } from '../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../fixtures/redis/redis-server';
import { newKey, waitFor } from '../fixtures/state/session-seam-contracts';

/** A cancel as a client sent it in the review: a 500 kB reason. */
function bigCancel(requestId: number): SessionBusMessage {
  return {
    t: 'cancel',
    from: 'aaaaaaaaaaaa',
    m: {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId, reason: 'x'.repeat(500_000) },
    },
  };
}

describeWithRedis('The byte bounds of the Redis logs', () => {
  let server: RedisServerHandle;
  let admin: ReturnType<typeof createClient>;
  let client: RedisClientLike;
  let subscriber: RedisClientLike;
  let commands: RedisCommands;
  const buses: RedisSessionBus[] = [];
  /** Each test gets a prefix of its own, so each has a budget of its own. */
  let prefix: string;
  let prefixes = 0;

  beforeAll(async () => {
    server = await startRedisServer();
    admin = createClient({ url: server.url });
    admin.on('error', () => {});
    await admin.connect();
    client = createClient({ url: server.url }) as unknown as RedisClientLike;
    subscriber = client.duplicate();
    await client.connect();
    await subscriber.connect();
    commands = new RedisCommands(client, 5_000);
  });
  beforeEach(() => {
    prefixes += 1;
    prefix = `${server.keyPrefix}${prefixes}:`;
  });
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
  });
  afterAll(async () => {
    client?.destroy?.();
    subscriber?.destroy?.();
    admin?.destroy();
    await server?.dispose();
  });

  function makeBus(options: Partial<RedisSessionBusOptions> = {}): RedisSessionBus {
    const bus = new RedisSessionBus({
      commands,
      subscriber: new RedisCommands(subscriber, 5_000),
      keyPrefix: prefix,
      keyTtlMs: 60_000,
      ...options,
    });
    buses.push(bus);
    return bus;
  }

  const keysOf = (key: SessionKey) => toSessionKeys(prefix, key);

  /** What the keys matching the pattern take in Redis, as MEMORY USAGE reports it. */
  async function memoryOf(pattern: string): Promise<number> {
    let total = 0;
    for (const name of await admin.keys(pattern)) {
      total += Number(await admin.sendCommand(['MEMORY', 'USAGE', name, 'SAMPLES', '0']));
    }
    return total;
  }

  /** What the budget of the prefix charges. */
  async function charged(): Promise<number> {
    return Number(await admin.hGet(toBudgetKeys(prefix).budget, 'bytes'));
  }

  describe('RedisSessionBus maxBytes (per session)', () => {
    it("keeps one session's bus log within its bound: 40 cancels of 500 kB keep about 2 MiB, not 20", async () => {
      const bus = makeBus();
      const key = newKey('subject');
      for (let n = 0; n < 40; n += 1) await bus.publish(key, bigCancel(n));
      const counted = Number(await admin.hGet(keysOf(key).busCounters, 'bytes'));
      const held = await memoryOf(`${keysOf(key).busLog}*`);
      expect(counted).toBeLessThanOrEqual(2 * 1024 * 1024);
      // Counted as Redis allocates it: never less than Redis holds, so the bound holds in Redis too.
      expect(held).toBeLessThanOrEqual(counted);
      expect(held).toBeGreaterThan(1024 * 1024);
      // The newest are kept, oldest gone first.
      const entries = (await admin.xRange(keysOf(key).busLog, '-', '+')) ?? [];
      expect(entries.length).toBe(3);
      expect(JSON.parse(entries[2]!.message.m!).m.params.requestId).toBe(39);
    });

    it.each([
      ['wake-ups', 30, 2_000],
      ['answers of 2,100 bytes', 2_100, 400],
      ['answers of 100 kB', 100_000, 40],
    ])('counts no less than Redis holds for %s, over the bound and trimmed', async (_name, size, count) => {
      const bus = makeBus({ maxBytes: 256 * 1024, maxEntries: 500 });
      const key = newKey('subject');
      const text = 'x'.repeat(size);
      for (let n = 0; n < count; n += 1) await bus.publish(key, { t: 'answer', to: 'a', m: { text } });
      const counted = Number(await admin.hGet(keysOf(key).busCounters, 'bytes'));
      expect(counted).toBeLessThanOrEqual(256 * 1024);
      expect(await memoryOf(`${keysOf(key).busLog}*`)).toBeLessThanOrEqual(counted);
      expect(await admin.xLen(keysOf(key).busLog)).toBeLessThanOrEqual(500);
    });

    it('refuses a message that alone is over the bound, publishing nothing', async () => {
      const bus = makeBus({ maxBytes: 64 * 1024 });
      const key = newKey('subject');
      const received: SessionBusMessage[] = [];
      await bus.subscribe(key, (message) => received.push(message));
      const refused = await bus.publish(key, { t: 'answer', m: { text: 'x'.repeat(70_000) } }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(SessionBusMessageTooLargeError);
      expect(refused).toBeInstanceOf(ToolInputError);
      const error = refused as SessionBusMessageTooLargeError;
      expect(error.code).toBe('SESSION_BUS_MESSAGE_TOO_LARGE');
      expect(error.maxBytes).toBe(64 * 1024);
      expect(error.bytes).toBeGreaterThan(70_000);
      expect(error.message).toBe(
        `A message of ${error.bytes} bytes is too big for the bus of session '${key.sessionId}' (at most 65536 bytes per session), so it was not published; send less, or raise the bus's maxBytes (when serving: maxBodyBytes, which the bus bound follows).`,
      );
      expect(await admin.exists(keysOf(key).busLog)).toBe(0);
      await bus.publish(key, { t: 'wake', s: 'after' });
      await waitFor(() => received.length === 1);
      expect(received).toEqual([{ t: 'wake', s: 'after' }]);
    });

    it('refuses a bound too small for one message, and a budget under the bound', () => {
      const { busLog, busCounters } = toSessionKeys(prefix, { sessionId: 'x' });
      const least = redisBusLogCost(busLog, busCounters) + redisBusEntryCost(2);
      expect(() => makeBus({ maxBytes: least - 1 })).toThrow(
        new ToolInputError(
          `RedisSessionBus maxBytes must be at least ${least}: on Redis a bus log with one message is charged that much (Redis reserves 4 kB for the newest node of each Stream; see docs/scaling.md); got ${least - 1}.`,
        ),
      );
      expect(() => makeBus({ maxBytes: least })).not.toThrow();
      expect(() => makeBus({ maxBytes: 100_000, maxTotalBytes: 99_999 })).toThrow(
        new ToolInputError(
          "RedisSessionBus maxTotalBytes must be at least maxBytes, 100000: one session's bus log may hold that much; got 99999.",
        ),
      );
      expect(
        () => new RedisEventLog({ commands, keyPrefix: prefix, maxBytes: 100_000, maxTotalBytes: 99_999 }),
      ).toThrow(
        new ToolInputError(
          'RedisEventLog maxTotalBytes (maxEventStoreBytes when serving with redis) must be at least maxBytes (maxEventStoreBytesPerSession), 100000: one session may hold that much; got 99999.',
        ),
      );
    });
  });

  describe('maxTotalBytes (per key prefix)', () => {
    it('keeps the bus logs of every session within it, dropping the log written longest ago first', async () => {
      const maxTotalBytes = 4 * 1024 * 1024;
      const bus = makeBus({ maxTotalBytes });
      const sessions = Array.from({ length: 12 }, () => newKey('subject'));
      // 12 sessions × about 1.9 MiB each (the per-session bound) would be 23 MiB.
      for (const key of sessions) for (let n = 0; n < 4; n += 1) await bus.publish(key, bigCancel(n));
      expect(await charged()).toBeLessThanOrEqual(maxTotalBytes);
      // What the logs and the budget itself take in Redis.
      const held = (await memoryOf(`${prefix}bus:*`)) + (await memoryOf(`${prefix}budget*`));
      expect(held).toBeLessThanOrEqual(await charged());
      const kept = await Promise.all(sessions.map((key) => admin.exists(keysOf(key).busLog)));
      expect(kept.slice(0, 9)).toEqual(Array(9).fill(0));
      expect(kept.slice(10)).toEqual([1, 1]);
      // A kept session reads on as ever.
      const received: SessionBusMessage[] = [];
      await bus.subscribe(sessions[11]!, (message) => received.push(message));
      await bus.publish(sessions[11]!, { t: 'wake', s: 'x' });
      await waitFor(() => received.length === 1);
    });

    it('is shared by the event logs and the bus logs of the prefix: one drops the oldest of the other', async () => {
      const maxTotalBytes = 3 * 1024 * 1024;
      const bus = makeBus({ maxTotalBytes });
      const log = new RedisEventLog({
        commands,
        keyPrefix: prefix,
        maxBytes: 2 * 1024 * 1024,
        maxTotalBytes,
        keyTtlMs: 60_000,
      });
      const quiet = newKey('subject');
      await bus.publish(quiet, bigCancel(1));
      const busy = [newKey('subject'), newKey('subject')];
      const text = 'x'.repeat(500_000);
      // Two sessions of three calls each, within their own bound (2 MiB) but not within the prefix's together.
      for (let call = 0; call < 3; call += 1) {
        for (const key of busy)
          await log.append(key, `call-${call}`, { jsonrpc: '2.0', id: call, result: { text } });
      }
      expect(await charged()).toBeLessThanOrEqual(maxTotalBytes);
      // The quiet session's bus log was the oldest: it went first, then the oldest calls of the first session.
      expect(await admin.exists(keysOf(quiet).busLog)).toBe(0);
      expect(await admin.exists(`${keysOf(busy[0]!).streamBase}call-0`)).toBe(0);
      expect(await admin.exists(`${keysOf(busy[0]!).streamBase}call-2`)).toBe(1);
      expect(await admin.exists(`${keysOf(busy[1]!).streamBase}call-2`)).toBe(1);
      const usage = await log.usage(busy[1]!);
      expect(usage.events).toBeGreaterThan(0);
      // And the other way round: messages push out the oldest events.
      for (const key of [newKey('subject'), newKey('subject'), newKey('subject')])
        for (let n = 0; n < 3; n += 1) await bus.publish(key, bigCancel(n));
      expect(await charged()).toBeLessThanOrEqual(maxTotalBytes);
      expect((await log.usage(busy[1]!)).events).toBeLessThan(usage.events);
      const held = (await memoryOf(`${prefix}*`)) - (await memoryOf(`${prefix}session:*`));
      expect(held).toBeLessThanOrEqual(await charged());
    });

    it('frees what a deleted session charged, and sweeps what an expired one charged', async () => {
      const bus = makeBus();
      const log = new RedisEventLog({ commands, keyPrefix: prefix, keyTtlMs: 60_000 });
      const deleted = newKey('subject');
      await log.append(deleted, 'stream-a', {
        jsonrpc: '2.0',
        method: 'n',
        params: { text: 'x'.repeat(10_000) },
      });
      await log.append(deleted, 'stream-b', { jsonrpc: '2.0', id: 1, result: {} });
      expect(await charged()).toBeGreaterThan(10_000);
      await log.deleteSession(deleted);
      expect(await charged()).toBe(0);
      expect(await admin.zCard(toBudgetKeys(prefix).order)).toBe(0);
      const expired = newKey('subject');
      await bus.publish(expired, { t: 'wake', s: 'x' });
      await log.append(expired, 'stream-a', { jsonrpc: '2.0', method: 'n' });
      // Its keys expire on their own (as after the idle timeout): the budget learns it at the next write.
      await admin.del(await admin.keys(`${prefix}*{${expired.sessionId}}*`));
      const live = newKey('subject');
      await bus.publish(live, { t: 'wake', s: 'x' });
      const members = await admin.zRange(toBudgetKeys(prefix).order, 0, -1);
      expect(members).toEqual([
        `B|${keysOf(live).tail}|${await admin.hGet(keysOf(live).busCounters, 'bytes')}`,
      ]);
      // The budget's own keys expire with the logs they charge.
      expect(await admin.pTTL(toBudgetKeys(prefix).budget)).toBeGreaterThan(50_000);
    });

    it('drops a member of the order it did not write, and goes on', async () => {
      const bus = makeBus({ maxTotalBytes: 4 * 1024 * 1024 });
      await admin.zAdd(toBudgetKeys(prefix).order, { score: 0, value: 'garbage' });
      await admin.hSet(toBudgetKeys(prefix).budget, 'bytes', String(10 * 1024 * 1024));
      const key = newKey('subject');
      await bus.publish(key, { t: 'wake', s: 'x' });
      expect(await admin.zScore(toBudgetKeys(prefix).order, 'garbage')).toBeNull();
      expect(await admin.xLen(keysOf(key).busLog)).toBe(1);
    });
  });
});
