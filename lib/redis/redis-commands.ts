import { createHash } from 'node:crypto';
import { SessionStoreUnavailableError } from '../errors/session-store-unavailable-error';
import type { RedisClientLike } from '../state/redis-client-like';
import { toStoreError } from './to-store-error';

/** A Lua script and its SHA-1, sent by hash once Redis has it. */
export interface RedisScript {
  readonly source: string;
  readonly sha1: string;
}

/** Returns a script to run with {@link RedisCommands.script}. */
export function defineRedisScript(source: string): RedisScript {
  return { source, sha1: createHash('sha1').update(source).digest('hex') };
}

/**
 * Runs the commands of the Redis stores on one client: every failure becomes a store error (see
 * `toStoreError`), and a command that gets no answer within the timeout fails as unavailable instead of
 * waiting for a Redis that hangs (or for a reconnect, on a client that queues commands while offline).
 */
export class RedisCommands {
  constructor(
    readonly client: RedisClientLike,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Sends one command.
   *
   * @throws SessionStoreUnavailableError when Redis cannot be reached or does not answer in time.
   * @throws SessionStoreDataError when Redis refuses the command because of a session's data.
   */
  async send(args: string[], sessionId?: string): Promise<unknown> {
    return this.guard(() => this.client.sendCommand(args), sessionId);
  }

  /**
   * Runs any call on the client (`subscribe`, `connect`) with the same timeout and error mapping as `send`.
   *
   * @throws SessionStoreUnavailableError when Redis cannot be reached or does not answer in time.
   */
  async guard<T>(call: () => Promise<T>, sessionId?: string): Promise<T> {
    try {
      return await this.withTimeout(call());
    } catch (error) {
      throw toStoreError(error, sessionId);
    }
  }

  /** Runs a script by its hash, sending its source when Redis does not have it (after a restart). */
  async script(script: RedisScript, keys: string[], args: string[], sessionId?: string): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.withTimeout(this.client.sendCommand(['EVALSHA', script.sha1, ...tail]));
    } catch (error) {
      if (!(error instanceof Error && /^NOSCRIPT\b/.test(error.message)))
        throw toStoreError(error, sessionId);
    }
    try {
      return await this.withTimeout(this.client.sendCommand(['EVAL', script.source, ...tail]));
    } catch (error) {
      throw toStoreError(error, sessionId);
    }
  }

  private withTimeout<T>(pending: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new SessionStoreUnavailableError({
              reason: `Redis did not answer within ${this.timeoutMs} ms`,
              provider: 'redis',
            }),
          ),
        this.timeoutMs,
      );
      timer.unref();
    });
    // The command may still settle later; its outcome is then of no interest.
    pending.catch(() => {});
    return Promise.race([pending, timeout]).finally(() => clearTimeout(timer));
  }
}
