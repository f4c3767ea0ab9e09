import { ProtolinkError } from '../errors/protolink-error';
import { SessionStoreDataError } from '../errors/session-store-data-error';
import { SessionStoreUnavailableError } from '../errors/session-store-unavailable-error';

/** Error replies that mean Redis cannot serve now, whatever the data: the store is unavailable. */
const UNAVAILABLE_REPLIES =
  /^(LOADING|BUSY|READONLY|MASTERDOWN|OOM|CLUSTERDOWN|TRYAGAIN|NOAUTH|WRONGPASS|NOPERM|MISCONF|NOREPLICAS|MOVED|ASK)\b/;

/** The reason given for Redis's `OOM` reply, which names a script and a line that tell a reader nothing. */
const OUT_OF_MEMORY =
  "Redis is full (used memory > 'maxmemory') and refuses to store more; give it more maxmemory or lower the bounds of what Protolink keeps there (see Sizing in docs/scaling.md)";

/** Whether Redis itself answered with an error (as opposed to a connection failing). */
function isErrorReply(error: Error): boolean {
  for (
    let type: unknown = error.constructor;
    typeof type === 'function';
    type = Object.getPrototypeOf(type)
  ) {
    if ((type as { name?: string }).name === 'ErrorReply') return true;
  }
  return false;
}

/**
 * Turns what a Redis command threw into the store's error: a reply about the data of one session (a key of
 * the wrong type, a value a script cannot read) is a {@link SessionStoreDataError} of that session; anything
 * else (a connection down, a timeout, Redis loading or out of memory) is a {@link SessionStoreUnavailableError}.
 */
export function toStoreError(error: unknown, sessionId?: string): ProtolinkError {
  if (error instanceof ProtolinkError) return error;
  // node-redis wraps what a reconnect strategy returned (ours returns a store error) in ReconnectStrategyError.
  const original = (error as { originalError?: unknown } | null)?.originalError;
  if (original instanceof ProtolinkError) return original;
  const message = error instanceof Error ? error.message : String(error);
  const reason = /^OOM\b/.test(message)
    ? OUT_OF_MEMORY
    : message.replace(/\s+/g, ' ').trim().slice(0, 300) || 'unknown Redis failure';
  if (
    sessionId !== undefined &&
    error instanceof Error &&
    isErrorReply(error) &&
    !UNAVAILABLE_REPLIES.test(message)
  ) {
    return new SessionStoreDataError({ sessionId, reason, cause: error, provider: 'redis' });
  }
  return new SessionStoreUnavailableError({ reason, cause: error, provider: 'redis' });
}

/** Whether a store error is Redis refusing to store more (at `maxmemory` with `noeviction`). */
export function isRedisFullError(error: unknown): boolean {
  if (!(error instanceof ProtolinkError)) return false;
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error && /^OOM\b/.test(cause.message);
}
