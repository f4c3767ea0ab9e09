import { createClient } from 'redis';
import { SessionStoreUnavailableError } from '../errors/session-store-unavailable-error';
import { ToolInputError } from '../errors/tool-input-error';
import { DEFAULT_MAX_EVENT_STORE_BYTES } from '../state/event-store-budget';
import { DEFAULT_MAX_STORED_EVENT_BYTES } from '../state/memory/in-memory-event-store';
import type { EventLogOptions } from '../state/event-log';
import { DEFAULT_SESSION_IDLE_TIMEOUT_MS } from '../state/session-store';
import { resolveTaskStoreLimits } from '../tasks/task-store-limits';
import type { TaskStoreLimits } from '../tasks/task-store-limits';
import { DEFAULT_SESSION_BUS_MAX_BYTES } from '../state/session-bus';
import type { RedisClientLike } from '../state/redis-client-like';
import { RedisCallLeases } from './redis-call-leases';
import { RedisCommands } from './redis-commands';
import { RedisEventLog } from './redis-event-log';
import { RedisSessionBus } from './redis-session-bus';
import { RedisSessionStore } from './redis-session-store';
import { RedisTaskStore } from './redis-task-store';
import { toStoreError } from './to-store-error';

/** Default of {@link CreateRedisBackendOptions.keyPrefix}. */
export const DEFAULT_REDIS_KEY_PREFIX = 'protolink:';

/** Default of {@link CreateRedisBackendOptions.commandTimeoutMs}: 5 s. */
export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 5_000;

/** Options of {@link createRedisBackend}. */
export interface CreateRedisBackendOptions {
  /**
   * A Redis URL (`redis://…`, `rediss://…`), or a node-redis client (`createClient()` of `redis`), connected
   * or not. A given client is used as is and never closed by the backend; a duplicate of it carries the
   * subscriptions.
   */
  redis: string | RedisClientLike;
  /** Prefix of every key and channel (default `protolink:`). Give each agent sharing one Redis its own. */
  keyPrefix?: string;
  /** How long a session lives without use, in ms (default 30 min, as the server's `sessionIdleTimeoutMs`). */
  idleTimeoutMs?: number;
  /** Bounds of the event log, per session (defaults as the in-memory store's). */
  eventLog?: EventLogOptions;
  /** Bounds of the task store, per owner and over the key prefix (defaults as the in-memory store's). */
  tasks?: TaskStoreLimits;
  /** Bounds of the session bus, per session (see `RedisSessionBusOptions`). */
  bus?: {
    /** Most bytes of a session's bus log, as Redis allocates them (default 2 MiB); no message may take more. */
    maxBytes?: number;
    /** About how many messages a session's bus log keeps at most (default 1,000). */
    maxEntries?: number;
    /** How long a message is kept at least, unless a bound pushes it out first, in ms (default 5 min). */
    retentionMs?: number;
  };
  /**
   * Most bytes the event logs and bus logs of every session under the key prefix take in Redis together; the
   * oldest events and bus logs of any session go first beyond it. Default: 64 MiB, or half of Redis's
   * `maxmemory` (read at start) when that is less, and never less than a session's own bounds.
   */
  maxTotalBytes?: number;
  /** A command unanswered this long fails as unavailable, in ms (default 5 s). */
  commandTimeoutMs?: number;
  /** Connection errors of the clients the backend made (they reconnect by themselves meanwhile). */
  onConnectionError?: (error: unknown) => void;
}

/** The Redis implementations of the session seams, on one connection (plus one for subscriptions). */
export interface RedisBackend {
  /** The session records. */
  readonly sessions: RedisSessionStore;
  /** The resumable streams' events. */
  readonly events: RedisEventLog;
  /** The session buses: a bounded log (a Redis Stream) and a wake-up channel per session. */
  readonly bus: RedisSessionBus;
  /** Heartbeats of the processes and owners of running streams. */
  readonly leases: RedisCallLeases;
  /** The tasks (served task-augmented calls), shared by every process. */
  readonly tasks: RedisTaskStore;
  /** The key prefix in use. */
  readonly keyPrefix: string;
  /** The byte budget of the prefix's event logs and bus logs together (see `maxTotalBytes`). */
  readonly maxTotalBytes: number;
  /** Ends the subscriptions and closes the connections the backend opened (never a client it was given). */
  close(): Promise<void>;
}

/**
 * Connects to Redis (or takes a node-redis client) and returns the Redis session store, event log and bus.
 * Clients made from a URL do not queue commands while disconnected (a request fails at once with
 * `session store unavailable`) and reconnect by themselves with a backoff of up to 2 s.
 *
 * @throws SessionStoreUnavailableError when the URL is not a Redis URL (not retryable) or Redis cannot be
 * reached (retryable).
 * @throws ToolInputError for a key prefix, timeout or bound that is not valid (no connection is left open).
 */
export async function createRedisBackend(options: CreateRedisBackendOptions): Promise<RedisBackend> {
  const keyPrefix = options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX;
  if (typeof keyPrefix !== 'string' || !/^[\x21-\x7a\x7c\x7e]{0,200}$/.test(keyPrefix)) {
    throw new ToolInputError(
      `redisKeyPrefix must be up to 200 visible ASCII characters without braces, got '${String(keyPrefix).slice(0, 100)}'.`,
    );
  }
  const timeoutMs = options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) {
    throw new ToolInputError(
      `commandTimeoutMs must be a whole number of at least 1, got ${String(timeoutMs)}.`,
    );
  }
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS;
  // Checked before connecting, so a wrong bound fails without touching Redis.
  const taskLimits = resolveTaskStoreLimits(options.tasks);
  const onError = options.onConnectionError ?? (() => {});
  const owned = typeof options.redis === 'string';
  const client = typeof options.redis === 'string' ? toClient(options.redis) : options.redis;
  if (owned) client.on('error', onError);
  const subscriber = client.duplicate();
  subscriber.on('error', onError);
  const commands = new RedisCommands(client, timeoutMs);
  const subscriberCommands = new RedisCommands(subscriber, timeoutMs);
  let events: RedisEventLog;
  let bus: RedisSessionBus;
  let maxTotalBytes: number;
  try {
    if (!client.isOpen) await commands.guard(() => client.connect());
    await subscriberCommands.guard(() => subscriber.connect());
    await commands.send(['PING']);
    maxTotalBytes = options.maxTotalBytes ?? (await defaultMaxTotalBytes(commands, options));
    events = new RedisEventLog({
      commands,
      keyPrefix,
      keyTtlMs: idleTimeoutMs + (options.eventLog?.resumeWindowMs ?? 30_000),
      ...options.eventLog,
      maxTotalBytes,
    });
    bus = new RedisSessionBus({
      commands,
      subscriber: subscriberCommands,
      keyPrefix,
      keyTtlMs: idleTimeoutMs,
      onReadError: onError,
      ...options.bus,
      maxTotalBytes,
    });
  } catch (error) {
    // A bound refused leaves no connection open either.
    await closeClient(subscriber);
    if (owned) await closeClient(client);
    throw error;
  }
  const sessions = new RedisSessionStore({ commands, keyPrefix, idleTimeoutMs });
  const leases = new RedisCallLeases({ commands, keyPrefix });
  const tasks = new RedisTaskStore({ commands, keyPrefix, ...taskLimits });
  let closed = false;
  return {
    sessions,
    events,
    bus,
    leases,
    tasks,
    keyPrefix,
    maxTotalBytes,
    close: async () => {
      if (closed) return;
      closed = true;
      await bus.close();
      await closeClient(subscriber);
      if (owned) await closeClient(client);
    },
  };
}

/**
 * 64 MiB, or half of Redis's `maxmemory` when that is less (the rest is for the session records, the tasks
 * and Redis itself), but never less than what one session's logs may hold.
 */
async function defaultMaxTotalBytes(
  commands: RedisCommands,
  options: CreateRedisBackendOptions,
): Promise<number> {
  let maxmemory = 0;
  try {
    const info = String(await commands.send(['INFO', 'memory']));
    maxmemory = Number(/^maxmemory:(\d+)/m.exec(info)?.[1] ?? 0);
  } catch {
    // A Redis that does not say (INFO refused to this user): the fixed default.
  }
  const share = maxmemory > 0 ? Math.floor(maxmemory / 2) : DEFAULT_MAX_EVENT_STORE_BYTES;
  return Math.max(
    Math.min(DEFAULT_MAX_EVENT_STORE_BYTES, share),
    options.eventLog?.maxBytes ?? DEFAULT_MAX_STORED_EVENT_BYTES,
    options.bus?.maxBytes ?? DEFAULT_SESSION_BUS_MAX_BYTES,
  );
}

/** A client for a URL: fails at once while disconnected, reconnects by itself, and fails fast at start. */
function toClient(url: string): RedisClientLike {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !/^rediss?:$/.test(parsed.protocol)) {
    throw new SessionStoreUnavailableError({
      reason: `'${redactUrl(url)}' is not a redis:// or rediss:// URL`,
      provider: 'redis',
      retryable: false,
    });
  }
  let connectedOnce = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 5_000,
      // Until the first connection, give up at the first failure so a wrong address fails the start; after
      // it, retry forever (a restarted Redis is picked up again without restarting the server).
      // (A store error, not the socket's own: node-redis checks `instanceof Error` in its own realm.)
      reconnectStrategy: (retries: number, cause: Error) =>
        connectedOnce ? Math.min(50 * 2 ** Math.min(retries, 6), 2_000) : toStoreError(cause),
    },
  });
  client.on('ready', () => {
    connectedOnce = true;
  });
  return client as unknown as RedisClientLike;
}

async function closeClient(client: RedisClientLike): Promise<void> {
  try {
    if (client.isReady && client.close) await client.close();
    else if (client.isReady && client.quit) await client.quit();
    else client.destroy?.();
  } catch {
    client.destroy?.();
  }
}

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  return url.replace(/\/\/([^@/]*):[^@/]*@/, '//$1:***@').slice(0, 200);
}
