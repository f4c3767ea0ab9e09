import { SessionBusMessageTooLargeError } from '../errors/session-bus-message-too-large-error';
import { SessionStoreDataError } from '../errors/session-store-data-error';
import { ToolInputError } from '../errors/tool-input-error';
import { DEFAULT_MAX_EVENT_STORE_BYTES } from '../state/event-store-budget';
import { DEFAULT_SESSION_BUS_MAX_BYTES } from '../state/session-bus';
import type {
  SessionBus,
  SessionBusMessage,
  SessionBusSubscribeOptions,
  SessionBusSubscription,
} from '../state/session-bus';
import type { SessionKey } from '../state/session-key';
import { PUBLISH } from './bus-log-scripts';
import { BEFORE_FIRST_ENTRY, isEntryId, RedisBusReader } from './redis-bus-reader';
import type { RedisCommands } from './redis-commands';
import { redisBusEntryCost, redisBusLogCost } from './redis-event-cost';
import { assertStorableSessionKey, isStorableSessionKey, toBudgetKeys, toSessionKeys } from './redis-keys';

/** Default of {@link RedisSessionBusOptions.maxEntries}. */
export const DEFAULT_BUS_MAX_ENTRIES = 1_000;
/** Default of {@link RedisSessionBusOptions.retentionMs}: 5 min. */
export const DEFAULT_BUS_RETENTION_MS = 5 * 60 * 1000;
/** Default of {@link RedisSessionBusOptions.pollIntervalMs}: 1 s. */
export const DEFAULT_BUS_POLL_INTERVAL_MS = 1_000;
/** Default of {@link RedisSessionBusOptions.backstopMs}: 30 s. */
export const DEFAULT_BUS_BACKSTOP_MS = 30_000;

/** Options of {@link RedisSessionBus}. */
export interface RedisSessionBusOptions {
  /** The connection messages are appended and read on. */
  commands: RedisCommands;
  /** The connection used for subscriptions only (a subscribed connection can send nothing else). */
  subscriber: RedisCommands;
  /** Prefix of every key and channel (default `protolink:`). */
  keyPrefix?: string;
  /**
   * How long a session's bus log outlives the last message published on it, in ms (default 30 min; use the
   * session idle timeout, as `createRedisBackend` does).
   */
  keyTtlMs?: number;
  /** About how many entries a session's bus log keeps at most (Redis trims whole nodes; default 1,000). */
  maxEntries?: number;
  /** How long an entry is kept at least, unless `maxEntries` or `maxBytes` push it out first, in ms (default 5 min). */
  retentionMs?: number;
  /**
   * Most bytes a session's bus log takes in Redis, counted as Redis allocates them (default 2 MiB): the
   * oldest messages go first; a message that alone would take more is refused with
   * `SessionBusMessageTooLargeError`.
   */
  maxBytes?: number;
  /**
   * Most bytes the bus logs and event logs of every session under the key prefix take in Redis together (the
   * prefix's budget, shared with the `RedisEventLog` of the same prefix; default 64 MiB): beyond it the oldest
   * bus logs or events of any session are dropped first. At least `maxBytes`.
   */
  maxTotalBytes?: number;
  /**
   * How often every subscription reads its session's log without a wake-up while the subscriber connection
   * is down or a read failed, in ms (default 1 s): wake-ups cannot arrive then.
   */
  pollIntervalMs?: number;
  /**
   * How often every subscription reads its session's log anyway while all is well, in ms (default 30 s): a
   * healthy subscriber hears every wake-up, so this only bounds the delay of one lost in a way nobody saw.
   * It costs one `XRANGE` per held session each time.
   */
  backstopMs?: number;
  /** Reads of the log that failed for no session's data (Redis unavailable): said once per outage. */
  onReadError?: (error: unknown) => void;
}

interface ActiveSubscription {
  readonly channel: string;
  readonly raw: (message: string, channel: string) => void;
  readonly reader: RedisBusReader;
}

/**
 * The session bus on Redis. A message is appended to the session's bus log (a Redis Stream,
 * `<prefix>bus:<subject>:{<session>}:log`, bounded in entries, age and bytes, charged to the prefix's byte
 * budget with the event logs, and expiring) and its entry id published on the session's
 * channel (`<prefix>bus:<subject>:{<session>}`) as a wake-up, in one script. Each subscription keeps a cursor
 * (the log's last entry when it subscribed) and reads the entries after it, on the command connection, at
 * every wake-up, when the subscriber connection is ready again after a reconnect, every `pollIntervalMs` while
 * the subscriber connection is down or a read failed, and every `backstopMs` besides: a wake-up lost while the
 * subscriber reconnects only delays a message, it never loses it. Each
 * message reaches each subscription exactly once and in order; messages published before it subscribed do not.
 */
export class RedisSessionBus implements SessionBus {
  private readonly commands: RedisCommands;
  private readonly subscriber: RedisCommands;
  private readonly keyPrefix: string;
  private readonly keyTtlMs: number;
  private readonly maxEntries: number;
  private readonly retentionMs: number;
  private readonly maxBytes: number;
  private readonly maxTotalBytes: number;
  private readonly pollIntervalMs: number;
  private readonly backstopMs: number;
  private lastReadAll = 0;
  private readonly onReadError: (error: unknown) => void;
  private readonly subscriptions = new Set<ActiveSubscription>();
  private poller: NodeJS.Timeout | undefined;
  private readFailing = false;
  private readonly wakeAll = (): void => {
    this.lastReadAll = Date.now();
    for (const { reader } of this.subscriptions) reader.wake();
  };
  /** The timer: reads when wake-ups cannot arrive (subscriber down, a read failed), else at the backstop. */
  private readonly tick = (): void => {
    const blind = !this.subscriber.client.isReady || this.readFailing;
    if (blind || Date.now() - this.lastReadAll >= this.backstopMs) this.wakeAll();
  };

  /**
   * @throws ToolInputError for an expiry, bound or interval that is not a whole number of at least 1, a
   * `maxBytes` too small to keep one message, or a `maxTotalBytes` under `maxBytes`.
   */
  constructor(options: RedisSessionBusOptions) {
    this.commands = options.commands;
    this.subscriber = options.subscriber;
    this.keyPrefix = options.keyPrefix ?? 'protolink:';
    this.keyTtlMs = wholeNumber('keyTtlMs', options.keyTtlMs ?? 30 * 60 * 1000);
    this.maxEntries = wholeNumber('maxEntries', options.maxEntries ?? DEFAULT_BUS_MAX_ENTRIES);
    this.retentionMs = wholeNumber('retentionMs', options.retentionMs ?? DEFAULT_BUS_RETENTION_MS);
    this.maxBytes = wholeNumber('maxBytes', options.maxBytes ?? DEFAULT_SESSION_BUS_MAX_BYTES);
    const { busLog, busCounters } = toSessionKeys(this.keyPrefix, { sessionId: 'x' });
    const least = redisBusLogCost(busLog, busCounters) + redisBusEntryCost(2);
    if (this.maxBytes < least) {
      throw new ToolInputError(
        `RedisSessionBus maxBytes must be at least ${least}: on Redis a bus log with one message is charged that much (Redis reserves 4 kB for the newest node of each Stream; see docs/scaling.md); got ${this.maxBytes}.`,
      );
    }
    this.maxTotalBytes = wholeNumber('maxTotalBytes', options.maxTotalBytes ?? DEFAULT_MAX_EVENT_STORE_BYTES);
    if (this.maxTotalBytes < this.maxBytes) {
      throw new ToolInputError(
        `RedisSessionBus maxTotalBytes must be at least maxBytes, ${this.maxBytes}: one session's bus log may hold that much; got ${this.maxTotalBytes}.`,
      );
    }
    this.pollIntervalMs = wholeNumber(
      'pollIntervalMs',
      options.pollIntervalMs ?? DEFAULT_BUS_POLL_INTERVAL_MS,
    );
    this.backstopMs = wholeNumber('backstopMs', options.backstopMs ?? DEFAULT_BUS_BACKSTOP_MS);
    this.onReadError = options.onReadError ?? (() => {});
    // Once for the bus's life (a client without `off` could not lose a listener added per subscription):
    // node-redis subscribes again before it says 'ready', and wake-ups published meanwhile were lost.
    this.subscriber.client.on('ready', this.wakeAll);
  }

  /**
   * Appends the message to the session's bus log and wakes the subscribers.
   *
   * @throws ToolInputError when the session key cannot be stored.
   * @throws SessionBusMessageTooLargeError when the message, with the log's own cost, is over `maxBytes`.
   * @throws SessionStoreUnavailableError when Redis cannot be reached.
   * @throws SessionStoreDataError when the session's bus log key holds something else.
   */
  async publish(key: SessionKey, message: SessionBusMessage): Promise<void> {
    assertStorableSessionKey(key);
    const keys = toSessionKeys(this.keyPrefix, key);
    const json = JSON.stringify(message);
    const cost = redisBusEntryCost(Buffer.byteLength(json));
    const logCost = redisBusLogCost(keys.busLog, keys.busCounters);
    if (cost + logCost > this.maxBytes) {
      throw new SessionBusMessageTooLargeError({
        sessionId: key.sessionId,
        bytes: cost + logCost,
        maxBytes: this.maxBytes,
      });
    }
    const budget = toBudgetKeys(this.keyPrefix);
    await this.commands.script(
      PUBLISH,
      [budget.budget, budget.order, keys.busLog, keys.busCounters],
      [
        this.keyPrefix,
        keys.tail,
        String(this.keyTtlMs),
        String(this.maxTotalBytes),
        String(this.maxEntries),
        String(this.retentionMs),
        String(this.maxBytes),
        keys.channel,
        json,
        String(cost),
        String(logCost),
      ],
      key.sessionId,
    );
  }

  /**
   * Delivers every message published on the session's bus from now on.
   *
   * @throws ToolInputError when the session key cannot be stored.
   * @throws SessionStoreUnavailableError when Redis cannot be reached.
   * @throws SessionStoreDataError when the session's bus log key holds something else.
   */
  async subscribe(
    key: SessionKey,
    listener: (message: SessionBusMessage) => void,
    options: SessionBusSubscribeOptions = {},
  ): Promise<SessionBusSubscription> {
    assertStorableSessionKey(key);
    const keys = toSessionKeys(this.keyPrefix, key);
    const onDataError = (error: SessionStoreDataError): void => options.onError?.(error);
    const reader = new RedisBusReader({
      commands: this.commands,
      key,
      logKey: keys.busLog,
      cursor: await this.lastEntryOf(keys.busLog, key),
      listener,
      onDataError,
      onReadError: (error) => {
        if (!this.readFailing) this.onReadError(error);
        this.readFailing = true;
      },
      onReadSucceeded: () => {
        this.readFailing = false;
      },
    });
    const raw = (text: string): void => {
      if (isEntryId(text)) {
        reader.wake(text);
        return;
      }
      onDataError(
        new SessionStoreDataError({
          sessionId: key.sessionId,
          reason: 'a bus wake-up that is not a stream entry id',
          provider: 'redis',
        }),
      );
    };
    await this.subscriber.guard(() => this.subscriber.client.subscribe(keys.channel, raw));
    const subscription: ActiveSubscription = { channel: keys.channel, raw, reader };
    this.subscriptions.add(subscription);
    this.watch();
    // What was published between reading the cursor and subscribing woke nobody.
    reader.wake();
    return {
      unsubscribe: async () => {
        reader.stop();
        if (!this.subscriptions.delete(subscription)) return;
        this.unwatchWhenIdle();
        await this.subscriber.guard(() => this.subscriber.client.unsubscribe(keys.channel, raw));
      },
    };
  }

  /**
   * The session ended: its bus log expires `backstopMs` from now, long enough for every subscriber to read
   * the last messages (the session's `closed`), instead of staying for the idle timeout.
   *
   * @throws SessionStoreUnavailableError when Redis cannot be reached.
   */
  async endSession(key: SessionKey): Promise<void> {
    if (!isStorableSessionKey(key)) return;
    const { busLog, busCounters } = toSessionKeys(this.keyPrefix, key);
    await this.commands.send(['PEXPIRE', busLog, String(this.backstopMs)], key.sessionId);
    await this.commands.send(['PEXPIRE', busCounters, String(this.backstopMs)], key.sessionId);
  }

  /** Ends every subscription (the connections themselves are closed by the backend). */
  async close(): Promise<void> {
    const subscriptions = [...this.subscriptions];
    this.subscriptions.clear();
    this.unwatchWhenIdle();
    this.subscriber.client.off?.('ready', this.wakeAll);
    for (const { reader } of subscriptions) reader.stop();
    await Promise.allSettled(
      subscriptions.map(({ channel, raw }) => this.subscriber.client.unsubscribe(channel, raw)),
    );
  }

  /** The id of the log's last entry, or one before any entry when the log holds none. */
  private async lastEntryOf(logKey: string, key: SessionKey): Promise<string> {
    const last = await this.commands.send(['XREVRANGE', logKey, '+', '-', 'COUNT', '1'], key.sessionId);
    const id: unknown = Array.isArray(last) && Array.isArray(last[0]) ? last[0][0] : undefined;
    return isEntryId(id) ? id : BEFORE_FIRST_ENTRY;
  }

  /** While anyone is subscribed: reads on a timer, and when the subscriber connection is back. */
  private watch(): void {
    if (this.poller) return;
    this.lastReadAll = Date.now();
    this.poller = setInterval(this.tick, Math.min(this.pollIntervalMs, this.backstopMs));
    this.poller.unref();
  }

  private unwatchWhenIdle(): void {
    if (this.subscriptions.size > 0 || !this.poller) return;
    clearInterval(this.poller);
    this.poller = undefined;
  }
}

function wholeNumber(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ToolInputError(
      `RedisSessionBus ${name} must be a whole number of at least 1, got ${String(value)}.`,
    );
  }
  return value;
}
