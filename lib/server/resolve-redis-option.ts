import { ToolDefinitionError } from '../errors/tool-definition-error';
import { ToolInputError } from '../errors/tool-input-error';
import type { RedisClientLike } from '../state/redis-client-like';
import type { AgentServerOptions } from '../agents/agent-server-options';

/** The Redis the sessions are shared through, checked; undefined when the server keeps them in-process. */
export interface RedisOption {
  /** The URL or the node-redis client given. */
  readonly redis: string | RedisClientLike;
  /** The key prefix (default `protolink:`). */
  readonly keyPrefix: string;
}

/** Default of the server option `redisKeyPrefix` (the same as `createRedisBackend`'s). */
export const DEFAULT_SERVER_REDIS_KEY_PREFIX = 'protolink:';

/**
 * Checks the options `redis` and `redisKeyPrefix` against the rest of a server's options, before anything
 * connects. `redisKeyPrefix` is checked even without `redis`, so a bad prefix shows up before Redis is
 * turned on.
 *
 * @throws ToolDefinitionError when `redis` is given with `sessionMode: 'stateless'` (nothing to share) or
 * with `eventStore` (the shared event log replaces it).
 * @throws ToolInputError when `redis` is neither a `redis://`/`rediss://` URL nor a node-redis client, or
 * `redisKeyPrefix` is not up to 200 visible ASCII characters without braces. Messages never show a password.
 */
export function resolveRedisOption(
  options: Pick<AgentServerOptions, 'redis' | 'redisKeyPrefix' | 'sessionMode' | 'eventStore'>,
): RedisOption | undefined {
  const keyPrefix = options.redisKeyPrefix ?? DEFAULT_SERVER_REDIS_KEY_PREFIX;
  // The rule of createRedisBackend, checked here so the mistake shows before any connection is tried.
  if (typeof keyPrefix !== 'string' || !/^[\x21-\x7a\x7c\x7e]{0,200}$/.test(keyPrefix)) {
    throw new ToolInputError(
      `redisKeyPrefix must be up to 200 visible ASCII characters without braces, got '${String(keyPrefix).slice(0, 100)}'.`,
    );
  }
  const redis = options.redis;
  if (redis === undefined) return undefined;
  if (typeof redis === 'string') assertRedisUrl(redis);
  else if (!isRedisClientLike(redis)) {
    throw new ToolInputError(
      `redis must be a redis:// or rediss:// URL or a node-redis client (createClient() of 'redis'), got ${describe(redis)}.`,
    );
  }
  if (options.sessionMode === 'stateless') {
    throw new ToolDefinitionError(
      "redis cannot be used with sessionMode: 'stateless': stateless serving keeps no sessions, so there is " +
        "nothing to share and any process can answer any request already. Remove redis, or serve statefully (sessionMode: 'stateful', the default) to share sessions through it.",
    );
  }
  if (options.eventStore !== undefined) {
    throw new ToolDefinitionError(
      'eventStore cannot be used with redis: with redis the events of every session live in Redis (bounded by ' +
        'maxEventStoreBytesPerSession and eventStoreResumeWindowMs), so any process can resume any stream. Remove eventStore.',
    );
  }
  return { redis, keyPrefix };
}

function assertRedisUrl(url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !/^rediss?:$/.test(parsed.protocol) || !parsed.hostname) {
    throw new ToolInputError(
      `redis must be a redis:// or rediss:// URL (like redis://127.0.0.1:6379) or a node-redis client, got '${redactRedisUrl(url)}'.`,
    );
  }
}

/** A Redis URL for messages: the password (and a user name) replaced by `***`. */
export function redactRedisUrl(url: string): string {
  return url.replace(/\/\/[^@/?#]*@/, '//***@').slice(0, 200);
}

function isRedisClientLike(value: unknown): value is RedisClientLike {
  const candidate = value as Partial<Record<keyof RedisClientLike, unknown>> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.sendCommand === 'function' &&
    typeof candidate.duplicate === 'function' &&
    typeof candidate.connect === 'function'
  );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object without sendCommand, duplicate and connect';
  return typeof value;
}
