import { ToolRuntimeError } from './tool-runtime-error';
import type { ToolRuntimeErrorOptions } from './tool-runtime-error';

/** Options of {@link SessionStoreUnavailableError}. */
export interface SessionStoreUnavailableErrorOptions extends Omit<ToolRuntimeErrorOptions, 'status'> {
  /** What failed, in a short phrase (`connection refused`, `command timed out after 5000 ms`). */
  reason: string;
}

/** The JSON-RPC error code a request that needs the session store is answered with while it is down. */
export const SESSION_STORE_UNAVAILABLE_RPC_CODE = -32603;

/** The HTTP status a request that needs the session store is answered with while it is down. */
export const SESSION_STORE_UNAVAILABLE_HTTP_STATUS = 503;

/**
 * The shared session store (Redis, for `protolink/redis`) cannot be reached or refused to answer: every
 * request that needs it fails with this error (JSON-RPC -32603, HTTP 503) until it is back. Retryable
 * unless the configuration itself is wrong (a URL that is not a Redis URL).
 */
export class SessionStoreUnavailableError extends ToolRuntimeError {
  override readonly name: string = 'SessionStoreUnavailableError';
  override readonly code: string = 'SESSION_STORE_UNAVAILABLE';
  /** What failed. */
  readonly reason: string;

  /** Builds the message `session store unavailable: <reason>`. */
  constructor(options: SessionStoreUnavailableErrorOptions) {
    super(`session store unavailable: ${options.reason}`, {
      ...options,
      status: SESSION_STORE_UNAVAILABLE_HTTP_STATUS,
      retryable: options.retryable ?? true,
    });
    this.reason = options.reason;
  }

  protected override details(): Record<string, unknown> {
    return { ...super.details(), reason: this.reason };
  }
}
