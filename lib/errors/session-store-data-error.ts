import { ToolRuntimeError } from './tool-runtime-error';
import type { ToolRuntimeErrorOptions } from './tool-runtime-error';

/** Options of {@link SessionStoreDataError}. */
export interface SessionStoreDataErrorOptions extends Omit<ToolRuntimeErrorOptions, 'status' | 'retryable'> {
  /** The session whose stored value is unreadable. */
  sessionId: string;
  /** What is wrong with it, in a short phrase (`truncated JSON in field clientInfo`, `WRONGTYPE`). */
  reason: string;
}

/**
 * A value in the shared session store is not what Protolink wrote (truncated JSON, a key of the wrong type,
 * a field missing): the request of that session fails, every other session goes on. Not retryable: the
 * client should start a new session.
 */
export class SessionStoreDataError extends ToolRuntimeError {
  override readonly name: string = 'SessionStoreDataError';
  override readonly code: string = 'SESSION_STORE_DATA';
  /** The session whose stored value is unreadable. */
  readonly sessionId: string;
  /** What is wrong with it. */
  readonly reason: string;

  /** Builds a message naming the session and the fault. */
  constructor(options: SessionStoreDataErrorOptions) {
    super(
      `The session store holds an unreadable value for session '${options.sessionId.slice(0, 100)}' ` +
        `(${options.reason}); start a new session. Another program may be writing under the same key prefix.`,
      { ...options, retryable: false },
    );
    this.sessionId = options.sessionId;
    this.reason = options.reason;
  }

  protected override details(): Record<string, unknown> {
    return { ...super.details(), sessionId: this.sessionId, reason: this.reason };
  }
}
