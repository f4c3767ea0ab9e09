import { ToolRuntimeError } from './tool-runtime-error';
import type { ToolRuntimeErrorOptions } from './tool-runtime-error';

/** Which cap refused a new session. */
export type SessionLimit = 'maxSessions' | 'maxSessionsPerClient';

/** Options of {@link SessionLimitError}. */
export interface SessionLimitErrorOptions extends Omit<ToolRuntimeErrorOptions, 'status' | 'retryable'> {
  /** The cap that is reached. */
  limit: SessionLimit;
  /** Its value. */
  max: number;
}

/**
 * A session store refused a new session because a cap is reached over every session it holds (every
 * process, when it is shared): `maxSessions` (HTTP 503) or `maxSessionsPerClient` (HTTP 429). Retryable:
 * a place frees when a session is deleted or expires.
 */
export class SessionLimitError extends ToolRuntimeError {
  override readonly name: string = 'SessionLimitError';
  override readonly code: string = 'SESSION_LIMIT';
  /** The cap that is reached. */
  readonly limit: SessionLimit;
  /** Its value. */
  readonly max: number;

  /** Builds a message naming the cap and how a place frees. */
  constructor(options: SessionLimitErrorOptions) {
    super(
      options.limit === 'maxSessions'
        ? `${options.max} sessions are open (maxSessions); retry once one is closed (DELETE) or expires.`
        : `This client already has ${options.max} sessions open (maxSessionsPerClient); close one (DELETE) or retry once one expires.`,
      { ...options, status: options.limit === 'maxSessions' ? 503 : 429, retryable: true },
    );
    this.limit = options.limit;
    this.max = options.max;
  }

  protected override details(): Record<string, unknown> {
    return { ...super.details(), limit: this.limit, max: this.max };
  }
}
