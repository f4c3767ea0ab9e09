import { ToolInputError } from '../errors/tool-input-error';

/**
 * How much a task store keeps: per owner (a session, a token subject, a stdio connection, `local`) and in
 * total (per process for `InMemoryTaskStore`, per key prefix for the Redis store). A result is counted as
 * the bytes of its JSON plus those of its status message. Beyond a bound the oldest ended task (of the owner,
 * or of anyone for the totals) is forgotten first, as if it had expired; a new task is refused with
 * `TooManyTasksError` only when every task kept is still running; a result over `maxResultBytesPerTask` is
 * stored as a failure saying so (`TaskResultTooLargeError`).
 */
export interface TaskStoreLimits {
  /** Most tasks kept for one owner, running or ended (default 5,000). */
  readonly maxTasksPerOwner?: number;
  /** Most tasks kept in total: in this process, or under the Redis key prefix (default 10,000). */
  readonly maxTasks?: number;
  /**
   * Largest result one task keeps, in bytes of JSON (default 8 MiB; at most `maxResultBytesPerOwner`). A larger
   * one is stored as a `failed` task whose error says it was too large to keep.
   */
  readonly maxResultBytesPerTask?: number;
  /** Most bytes of results kept for one owner (default 32 MiB; at most `maxResultBytes`). */
  readonly maxResultBytesPerOwner?: number;
  /** Most bytes of results kept in total: in this process, or under the Redis key prefix (default 128 MiB). */
  readonly maxResultBytes?: number;
}

/** The defaults of {@link TaskStoreLimits}. */
export const TASK_STORE_LIMIT_DEFAULTS = Object.freeze({
  maxTasksPerOwner: 5_000,
  maxTasks: 10_000,
  maxResultBytesPerTask: 8 * 1024 * 1024,
  maxResultBytesPerOwner: 32 * 1024 * 1024,
  maxResultBytes: 128 * 1024 * 1024,
});

/** {@link TaskStoreLimits} with every bound set. */
export type ResolvedTaskStoreLimits = { readonly [Name in keyof TaskStoreLimits]-?: number };

/**
 * The limits with their defaults; a default larger than a bound given below it is lowered to that bound (a
 * per-owner default never exceeds a smaller total given, the per-task one never exceeds the per-owner bound).
 *
 * @throws ToolInputError for a bound that is not a whole number >= 1, or a byte bound given larger than the
 *   one above it (a result that size could never be kept).
 */
export function resolveTaskStoreLimits(limits: TaskStoreLimits = {}): ResolvedTaskStoreLimits {
  const read = (name: keyof TaskStoreLimits, fallback: number): number => {
    const value = limits[name];
    if (value === undefined) return fallback;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new ToolInputError(`${name} must be a whole number >= 1, got ${String(value)}.`);
    }
    return value;
  };
  const defaults = TASK_STORE_LIMIT_DEFAULTS;
  const maxResultBytes = read('maxResultBytes', defaults.maxResultBytes);
  const maxResultBytesPerOwner = read(
    'maxResultBytesPerOwner',
    Math.min(defaults.maxResultBytesPerOwner, maxResultBytes),
  );
  const maxResultBytesPerTask = read(
    'maxResultBytesPerTask',
    Math.min(defaults.maxResultBytesPerTask, maxResultBytesPerOwner),
  );
  assertAtMost('maxResultBytesPerOwner', maxResultBytesPerOwner, 'maxResultBytes', maxResultBytes);
  assertAtMost(
    'maxResultBytesPerTask',
    maxResultBytesPerTask,
    'maxResultBytesPerOwner',
    maxResultBytesPerOwner,
  );
  return {
    maxTasksPerOwner: read('maxTasksPerOwner', defaults.maxTasksPerOwner),
    maxTasks: read('maxTasks', defaults.maxTasks),
    maxResultBytesPerTask,
    maxResultBytesPerOwner,
    maxResultBytes,
  };
}

/** What a stored result counts against the byte bounds: its JSON and its status message, in UTF-8 bytes. */
export function taskResultBytes(resultJson: string, statusMessage: string | undefined): number {
  return Buffer.byteLength(resultJson) + (statusMessage ? Buffer.byteLength(statusMessage) : 0);
}

function assertAtMost(name: string, value: number, aboveName: string, above: number): void {
  if (value <= above) return;
  throw new ToolInputError(
    `${name} (${value}) must not exceed ${aboveName} (${above}): a result that size could never be kept. Lower ${name} or raise ${aboveName}.`,
  );
}
