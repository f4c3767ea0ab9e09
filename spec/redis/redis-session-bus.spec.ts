import { createClient } from 'redis';
import { SessionStoreDataError } from '../../lib/errors/session-store-data-error';
import { SessionStoreUnavailableError } from '../../lib/errors/session-store-unavailable-error';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import type { RedisClientLike } from '../../lib/state/redis-client-like';
import { RedisCommands } from '../../lib/redis/redis-commands';
import { redisBusEntryCost } from '../../lib/redis/redis-event-cost';
import { toSessionKeys } from '../../lib/redis/redis-keys';
import { RedisSessionBus } from '../../lib/redis/redis-session-bus';
import type { RedisSessionBusOptions } from '../../lib/redis/redis-session-bus';
import type { SessionBusMessage } from '../../lib/state/session-bus';
import type { SessionKey } from '../../lib/state/session-key';
import { describeWithRedis, startRedisServer } from '../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../fixtures/redis/redis-server';
import { newKey, sleep, waitFor } from '../fixtures/state/session-seam-contracts';

describeWithRedis(
  'RedisSessionBus',
  () => {
    let server: RedisServerHandle;
    /** A plain client to look at (and tamper with) what the bus wrote, and to drop connections. */
    let admin: ReturnType<typeof createClient>;
    const cleanups: (() => Promise<unknown>)[] = [];

    beforeAll(async () => {
      server = await startRedisServer();
      admin = createClient({ url: server.url });
      admin.on('error', () => {});
      await admin.connect();
    });

    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
    });

    afterAll(async () => {
      admin?.destroy();
      await server?.dispose();
    });

    const keysOf = (key: SessionKey) => toSessionKeys(server.keyPrefix, key);

    /** A client that fails commands at once while it is down and tries to reconnect every 50 ms. */
    async function connectClient(): Promise<RedisClientLike> {
      const client = createClient({
        url: server.url,
        disableOfflineQueue: true,
        socket: { reconnectStrategy: () => 50 },
      });
      client.on('error', () => {});
      await client.connect();
      cleanups.push(async () => client.destroy());
      return client as unknown as RedisClientLike;
    }

    /** A bus on connections of its own. */
    async function makeBus(options: Partial<RedisSessionBusOptions> = {}) {
      const client = await connectClient();
      const subscriber = await connectClient();
      const bus = new RedisSessionBus({
        commands: new RedisCommands(client, 2_000),
        subscriber: new RedisCommands(subscriber, 2_000),
        keyPrefix: server.keyPrefix,
        ...options,
      });
      cleanups.push(() => bus.close());
      return { bus, client, subscriber };
    }

    /** Subscribes, collecting messages and errors. */
    async function listen(bus: RedisSessionBus, key: SessionKey) {
      const received: SessionBusMessage[] = [];
      const errors: unknown[] = [];
      await bus.subscribe(key, (message) => received.push(message), {
        onError: (error) => errors.push(error),
      });
      return { received, errors };
    }

    /**
     * Drops every subscribed connection, as a network blip would, and keeps them from coming back for
     * `downMs`: until then no connection slot is free (connections that stayed up go on working).
     */
    async function dropSubscribers(subscriber: RedisClientLike, downMs: number): Promise<void> {
      await refuseConnections(downMs);
      const killed = Number(await admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub']));
      expect(killed).toBeGreaterThanOrEqual(1);
      await waitFor(() => !subscriber.isReady);
    }

    /** Leaves no connection slot free for `downMs` once the subscribed connections are gone. */
    async function refuseConnections(downMs: number): Promise<void> {
      const connected = Number(
        /connected_clients:(\d+)/.exec(String(await admin.sendCommand(['INFO', 'clients'])))?.[1],
      );
      const subscribed = String(await admin.sendCommand(['CLIENT', 'LIST', 'TYPE', 'pubsub']))
        .trim()
        .split('\n');
      // Set before the kill: node-redis tries to reconnect at once.
      await admin.sendCommand(['CONFIG', 'SET', 'maxclients', String(connected - subscribed.length)]);
      const reopen = setTimeout(() => void allowConnections(), downMs);
      cleanups.push(async () => {
        clearTimeout(reopen);
        await allowConnections();
      });
    }

    const allowConnections = () => admin.sendCommand(['CONFIG', 'SET', 'maxclients', '10000']);

    describe('publish and subscribe', () => {
      it('delivers a message published while the subscriber connection is down once it is back, exactly once and in order', async () => {
        // No timer within the test: only the reconnect can deliver what was published meanwhile.
        const { bus, subscriber } = await makeBus({ pollIntervalMs: 60_000 });
        const key = newKey('subject');
        const { received, errors } = await listen(bus, key);
        await bus.publish(key, { n: 0 });
        await waitFor(() => received.length === 1);
        await dropSubscribers(subscriber, 700);
        await bus.publish(key, { n: 1 });
        await bus.publish(key, { n: 2 });
        await sleep(300);
        // The wake-ups went to no one: nothing arrived while the connection was down.
        expect(received).toEqual([{ n: 0 }]);
        await waitFor(() => received.length === 3);
        expect(subscriber.isReady).toBe(true);
        await bus.publish(key, { n: 3 });
        await waitFor(() => received.length === 4);
        await sleep(200);
        expect(received).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }]);
        expect(errors).toEqual([]);
      });

      it('delivers on the wake-up, well within 100 ms, without waiting for the timer', async () => {
        const { bus } = await makeBus({ pollIntervalMs: 60_000 });
        const key = newKey();
        const { received } = await listen(bus, key);
        const delays: number[] = [];
        for (let n = 0; n < 9; n += 1) {
          const started = Date.now();
          await bus.publish(key, { n });
          await waitFor(() => received.length === n + 1, 1_000);
          delays.push(Date.now() - started);
        }
        // The median: a busy machine may stall one round, not most.
        expect(delays.sort((a, b) => a - b)[4]).toBeLessThan(100);
      });

      it('reads the log on a timer, so a message reaches a subscriber whose connection stays down', async () => {
        const { bus, subscriber } = await makeBus({ pollIntervalMs: 200 });
        const key = newKey();
        const { received } = await listen(bus, key);
        await dropSubscribers(subscriber, 5_000);
        await bus.publish(key, { answer: 'Ada' });
        await waitFor(() => received.length === 1, 2_000);
        expect(subscriber.isReady).toBe(false);
        expect(received).toEqual([{ answer: 'Ada' }]);
      });

      it('delivers an entry the log holds without a wake-up within the backstop', async () => {
        const { bus } = await makeBus({ backstopMs: 1_000 });
        const key = newKey('subject');
        const { received } = await listen(bus, key);
        await admin.xAdd(keysOf(key).busLog, '*', { m: '{"woken":false}' });
        await sleep(100);
        expect(received).toEqual([]);
        await waitFor(() => received.length === 1, 2_500);
        expect(received).toEqual([{ woken: false }]);
      });

      it('leaves the log of a healthy subscription alone between wake-ups until the backstop', async () => {
        const { bus } = await makeBus({ pollIntervalMs: 50, backstopMs: 60_000 });
        const keys = [newKey(), newKey(), newKey()];
        for (const key of keys) await listen(bus, key);
        const reads = async () => {
          const info = String(await admin.sendCommand(['INFO', 'commandstats']));
          return Number(/cmdstat_xrange:calls=(\d+)/.exec(info)?.[1] ?? 0);
        };
        // Each subscription reads once as it starts (what came between its cursor and its subscribe): wait
        // until those landed (two readings alike), then count.
        let settled = await reads();
        for (let tries = 0; tries < 30; tries += 1) {
          await sleep(100);
          const now = await reads();
          if (now === settled) break;
          settled = now;
        }
        const before = await reads();
        await sleep(600);
        // Twelve ticks of the poll timer over three subscriptions, and not one read: wake-ups arrive.
        expect((await reads()) - before).toBe(0);
      });

      it('delivers a burst of messages once each, in the order they were published', async () => {
        const { bus } = await makeBus();
        const key = newKey();
        const { received } = await listen(bus, key);
        const count = 250;
        await Promise.all(Array.from({ length: count }, (_unused, n) => bus.publish(key, { n })));
        await waitFor(() => received.length === count);
        await sleep(1_200);
        expect(received).toEqual(Array.from({ length: count }, (_unused, n) => ({ n })));
      });

      it('does not deliver what was published before the subscription, nor after unsubscribing', async () => {
        const { bus } = await makeBus({ pollIntervalMs: 100 });
        const key = newKey();
        await bus.publish(key, { early: true });
        const received: SessionBusMessage[] = [];
        const subscription = await bus.subscribe(key, (message) => received.push(message));
        await bus.publish(key, { n: 1 });
        await waitFor(() => received.length === 1);
        await subscription.unsubscribe();
        await bus.publish(key, { n: 2 });
        await sleep(300);
        expect(received).toEqual([{ n: 1 }]);
      });

      it('never delivers the entries of another session or another token subject', async () => {
        const { bus } = await makeBus({ pollIntervalMs: 100 });
        const key = newKey('subject');
        const { received, errors } = await listen(bus, key);
        const otherSubject = { sessionId: key.sessionId, tokenSubject: 'other' };
        const noSubject = { sessionId: key.sessionId };
        const otherSession = newKey('subject');
        for (const other of [otherSubject, noSubject, otherSession]) {
          await bus.publish(other, { other: true });
          await admin.xAdd(keysOf(other).busLog, '*', { m: '{"other":true}' });
        }
        await bus.publish(key, { mine: true });
        await waitFor(() => received.length === 1);
        await sleep(300);
        expect(received).toEqual([{ mine: true }]);
        expect(errors).toEqual([]);
        expect(new Set([key, otherSubject, noSubject, otherSession].map((k) => keysOf(k).busLog)).size).toBe(
          4,
        );
      });
    });

    describe('the bus log', () => {
      it("keeps each session's messages in a Redis Stream under its hash tag, expiring and bounded", async () => {
        const { bus } = await makeBus({ keyTtlMs: 60_000, maxEntries: 100 });
        const key = newKey('subject');
        const name = keysOf(key).busLog;
        expect(name).toBe(`${server.keyPrefix}bus:subject:{${key.sessionId}}:log`);
        for (let n = 0; n < 500; n += 1) await bus.publish(key, { n });
        expect(await admin.type(name)).toBe('stream');
        const ttl = await admin.pTTL(name);
        expect(ttl).toBeGreaterThan(50_000);
        expect(ttl).toBeLessThanOrEqual(60_000);
        // Trimmed entry by entry, oldest first: exactly the bound.
        expect(await admin.xLen(name)).toBe(100);
        const [first] = (await admin.xRange(name, '-', '+', { COUNT: 1 })) ?? [];
        expect(first?.message.m).toBe('{"n":400}');
        const [last] = (await admin.xRevRange(name, '+', '-', { COUNT: 1 })) ?? [];
        // Each entry carries what it is charged (b), for the byte bound.
        expect(last?.message).toEqual({ m: '{"n":499}', b: String(redisBusEntryCost(8)) });
      });

      it('lets the log of an ended session go once its subscribers had the backstop to read it', async () => {
        const { bus } = await makeBus({ keyTtlMs: 600_000, backstopMs: 2_000 });
        const key = newKey('subject');
        const { received } = await listen(bus, key);
        await bus.publish(key, { t: 'closed' });
        await waitFor(() => received.length === 1);
        const name = keysOf(key).busLog;
        expect(await admin.pTTL(name)).toBeGreaterThan(500_000);
        await bus.endSession(key);
        const ttl = await admin.pTTL(name);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(2_000);
        // A key it cannot hold is nobody's log: nothing to do.
        await expect(bus.endSession({ sessionId: 'a{b}' })).resolves.toBeUndefined();
      });

      it('drops entries older than retentionMs at the next publish', async () => {
        const keeping = await makeBus();
        const dropping = await makeBus({ retentionMs: 50 });
        const key = newKey();
        const name = keysOf(key).busLog;
        for (let n = 0; n < 300; n += 1) await keeping.bus.publish(key, { n });
        expect(await admin.xLen(name)).toBe(300);
        await sleep(100);
        await dropping.bus.publish(key, { n: 300 });
        // Trimmed entry by entry: only the new message is left.
        expect(await admin.xLen(name)).toBe(1);
        const [last] = (await admin.xRevRange(name, '+', '-', { COUNT: 1 })) ?? [];
        expect(last?.message.m).toBe('{"n":300}');
      });
    });

    describe('hostile values', () => {
      it('reports a foreign entry to onError, skips it and delivers the rest', async () => {
        const { bus } = await makeBus();
        const key = newKey('subject');
        const { received, errors } = await listen(bus, key);
        const log = keysOf(key).busLog;
        await admin.xAdd(log, '*', { other: 'field' });
        await admin.xAdd(log, '*', { m: '{"truncated' });
        await admin.xAdd(log, '*', { m: '[1]' });
        await admin.publish(keysOf(key).channel, '{"not":"an entry id"}');
        await bus.publish(key, { ok: true });
        await waitFor(() => received.length === 1 && errors.length === 4);
        expect(received).toEqual([{ ok: true }]);
        for (const error of errors) {
          expect(error).toBeInstanceOf(SessionStoreDataError);
          expect(error).toMatchObject({ sessionId: key.sessionId, code: 'SESSION_STORE_DATA' });
        }
        expect((errors as SessionStoreDataError[]).map((error) => error.reason).sort()).toEqual([
          'a bus log entry Protolink did not write',
          'a bus message that is not a JSON object',
          'a bus message that is not a JSON object',
          'a bus wake-up that is not a stream entry id',
        ]);
        expect((errors[0] as Error).message).toMatch(
          /^The session store holds an unreadable value for session/,
        );
      });

      it('is a data error of that session when its bus log key holds something else', async () => {
        const { bus } = await makeBus();
        const key = newKey();
        await admin.set(keysOf(key).busLog, 'not a stream', { PX: 60_000 });
        for (const attempt of [bus.publish(key, { n: 1 }), bus.subscribe(key, () => undefined)]) {
          const error = await attempt.then(
            () => undefined,
            (caught: unknown) => caught,
          );
          expect(error).toBeInstanceOf(SessionStoreDataError);
          expect(error).toMatchObject({ sessionId: key.sessionId, code: 'SESSION_STORE_DATA' });
          expect((error as SessionStoreDataError).reason).toMatch(/^WRONGTYPE/);
        }
        // Another session goes on.
        const fine = newKey();
        const { received } = await listen(bus, fine);
        await bus.publish(fine, { n: 1 });
        await waitFor(() => received.length === 1);
      });

      it('reports a log that turns into something else once, and delivers again once it is a log', async () => {
        const { bus } = await makeBus({ pollIntervalMs: 100, backstopMs: 100 });
        const key = newKey();
        const { received, errors } = await listen(bus, key);
        await admin.set(keysOf(key).busLog, 'not a stream', { PX: 60_000 });
        await waitFor(() => errors.length === 1);
        await sleep(350);
        expect(errors).toHaveLength(1);
        expect((errors[0] as SessionStoreDataError).reason).toMatch(/^WRONGTYPE/);
        await admin.del(keysOf(key).busLog);
        await bus.publish(key, { back: true });
        await waitFor(() => received.length === 1);
        expect(received).toEqual([{ back: true }]);
      });

      it('refuses a session key it could not store', async () => {
        const { bus } = await makeBus();
        for (const key of [{ sessionId: 'a{b}' }, { sessionId: 'ok', tokenSubject: 'a:b' }]) {
          await expect(bus.publish(key, {})).rejects.toThrow(ToolInputError);
          await expect(bus.subscribe(key, () => undefined)).rejects.toThrow(
            /^A Redis-backed session needs an id of 1-256 visible ASCII characters/,
          );
        }
      });
    });

    describe('failures', () => {
      it.each(['keyTtlMs', 'maxEntries', 'retentionMs', 'pollIntervalMs', 'backstopMs'] as const)(
        'refuses a %s that is not a whole number of at least 1',
        async (name) => {
          const { client } = await makeBus();
          const commands = new RedisCommands(client, 1_000);
          for (const value of [0, 1.5, Number.NaN]) {
            const make = () => new RedisSessionBus({ commands, subscriber: commands, [name]: value });
            expect(make).toThrow(ToolInputError);
            expect(make).toThrow(
              `RedisSessionBus ${name} must be a whole number of at least 1, got ${String(value)}.`,
            );
          }
        },
      );

      it('fails a publish as unavailable while Redis is down, says a failing read once, and delivers when it is back', async () => {
        const readErrors: unknown[] = [];
        const { bus, client } = await makeBus({
          pollIntervalMs: 100,
          onReadError: (error) => readErrors.push(error),
        });
        const key = newKey();
        const { received } = await listen(bus, key);
        await server.stop();
        try {
          await waitFor(() => !client.isReady);
          const error = await bus.publish(key, { n: 1 }).catch((caught: unknown) => caught);
          expect(error).toBeInstanceOf(SessionStoreUnavailableError);
          expect((error as Error).message).toMatch(/^session store unavailable: /);
          await waitFor(() => readErrors.length === 1);
          await sleep(350);
          expect(readErrors).toHaveLength(1);
          expect(readErrors[0]).toBeInstanceOf(SessionStoreUnavailableError);
        } finally {
          await server.restart();
        }
        // Back: the subscription reads again and gets what is published now.
        await waitFor(() => client.isReady);
        await bus.publish(key, { n: 2 });
        await waitFor(() => received.length === 1);
        expect(received).toEqual([{ n: 2 }]);
      });
    });
  },
  // It drops every subscriber connection of its Redis: it needs one of its own.
  { ownServer: true },
);
