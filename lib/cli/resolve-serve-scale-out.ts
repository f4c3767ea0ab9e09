import { parsePublicUrl } from '../server/parse-public-url';
import { redactRedisUrl } from '../server/resolve-redis-option';
import { CliUsageError } from './cli-usage-error';

/** The environment variable `protolink serve` reads its Redis URL from when `--redis` is not given. */
export const SERVE_REDIS_ENV = 'PROTOLINK_REDIS_URL';

/** Most worker processes `--workers` accepts. */
export const MAX_SERVE_WORKERS = 64;

/** The scale-out flags of `protolink serve`, as given. */
export interface ServeScaleOutFlags {
  stdio?: boolean;
  stateless?: boolean;
  redis?: string;
  redisKeyPrefix?: string;
  workers?: number | string;
  publicUrl?: string;
  /** The environment to read {@link SERVE_REDIS_ENV} from. */
  env: Readonly<Record<string, string | undefined>>;
}

/** Where a `protolink serve` shares its sessions and how many processes it runs. */
export interface ServeScaleOut {
  /** Worker processes (1: serve in this process). */
  readonly workers: number;
  /** The Redis URL and where it came from, when sessions are shared. */
  readonly redis?: { readonly url: string; readonly source: '--redis' | typeof SERVE_REDIS_ENV };
  readonly redisKeyPrefix?: string;
  readonly publicUrl?: string;
}

/**
 * Checks the scale-out flags of `protolink serve` together: `--redis <url>` (else `PROTOLINK_REDIS_URL`),
 * `--redis-key-prefix`, `--workers <n>` and `--public-url <url>`. Messages never show a Redis password.
 *
 * @throws CliUsageError when `--workers` is not a whole number from 1 to 64; when several stateful workers
 * have no Redis to share their sessions; when Redis is given with `--stateless`; when an HTTP-only flag is
 * given with `--stdio`; when the Redis URL is not a `redis://`/`rediss://` URL; when `--redis-key-prefix`
 * comes without Redis; or when `--public-url` is not a plain http(s) URL.
 */
export function resolveServeScaleOut(flags: ServeScaleOutFlags): ServeScaleOut {
  const workers = parseWorkers(flags.workers);
  const fromEnv = flags.env[SERVE_REDIS_ENV];
  const redis: ServeScaleOut['redis'] =
    flags.redis !== undefined
      ? { url: flags.redis, source: '--redis' as const }
      : fromEnv !== undefined && fromEnv.trim() !== ''
        ? { url: fromEnv.trim(), source: SERVE_REDIS_ENV }
        : undefined;
  if (flags.stdio) {
    const httpOnly = [
      flags.workers !== undefined && '--workers',
      flags.redis !== undefined && '--redis',
      flags.redisKeyPrefix !== undefined && '--redis-key-prefix',
      flags.publicUrl !== undefined && '--public-url',
    ].filter(Boolean);
    if (httpOnly.length > 0) {
      throw new CliUsageError(
        `${httpOnly.join(', ')} ${httpOnly.length > 1 ? 'apply' : 'applies'} to HTTP serving only; remove ${httpOnly.length > 1 ? 'them' : 'it'} or serve with --http.`,
      );
    }
    // An environment set up for HTTP deployments must not break a stdio server started in it.
    return { workers: 1 };
  }
  if (redis) assertRedisUrl(redis.url, redis.source);
  if (redis && flags.stateless) {
    throw new CliUsageError(
      `${redis.source === '--redis' ? '--redis' : `${SERVE_REDIS_ENV} (set in the environment)`} cannot be used with --stateless: ` +
        `stateless serving keeps no sessions, so there is nothing to share. Remove ${redis.source === '--redis' ? '--redis' : `it (unset ${SERVE_REDIS_ENV})`}, or leave out --stateless.`,
    );
  }
  if (flags.redisKeyPrefix !== undefined && !redis) {
    throw new CliUsageError(
      `--redis-key-prefix needs a Redis: add --redis <url> (or set ${SERVE_REDIS_ENV}), or remove it.`,
    );
  }
  if (workers > 1 && !flags.stateless && !redis) {
    throw new CliUsageError(
      `--workers ${workers} needs --redis <url> (or ${SERVE_REDIS_ENV}): stateful MCP sessions must be shared between ` +
        'the worker processes. Add --redis <url>, or serve with --stateless.',
    );
  }
  let publicUrl: string | undefined;
  if (flags.publicUrl !== undefined) {
    try {
      parsePublicUrl(flags.publicUrl);
    } catch (error) {
      throw new CliUsageError(`--public-url: ${(error as Error).message.replace(/^publicUrl /, '')}`, {
        cause: error,
      });
    }
    publicUrl = flags.publicUrl;
  }
  return { workers, redis, redisKeyPrefix: flags.redisKeyPrefix, publicUrl };
}

function parseWorkers(value: number | string | undefined): number {
  if (value === undefined) return 1;
  const text = String(value).trim();
  const count = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_SERVE_WORKERS) {
    throw new CliUsageError(
      `--workers must be a whole number from 1 to ${MAX_SERVE_WORKERS}, got '${text.slice(0, 40)}'.`,
    );
  }
  return count;
}

function assertRedisUrl(url: string, source: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !/^rediss?:$/.test(parsed.protocol) || !parsed.hostname) {
    throw new CliUsageError(
      `${source} must be a redis:// or rediss:// URL (like redis://127.0.0.1:6379), got '${redactRedisUrl(url)}'.`,
    );
  }
}
