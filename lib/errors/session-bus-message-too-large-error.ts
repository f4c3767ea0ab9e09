import type { ProtolinkErrorOptions } from './protolink-error';
import { ToolInputError } from './tool-input-error';

/** Options of {@link SessionBusMessageTooLargeError}. */
export interface SessionBusMessageTooLargeErrorOptions extends ProtolinkErrorOptions {
  /** The session whose bus the message was for. */
  sessionId: string;
  /** What the message would take, as the bus counts it (its JSON; on Redis, what Redis allocates for it). */
  bytes: number;
  /** The bus's byte bound per session, which no single message may exceed. */
  maxBytes: number;
}

/**
 * A message is too big for a session's bus (over its byte bound per session): it was not published. The
 * MCP endpoint passes a client's answer that is too big to the process that waits for it as a JSON-RPC error
 * instead, so the waiter learns the outcome.
 */
export class SessionBusMessageTooLargeError extends ToolInputError {
  override readonly name: string = 'SessionBusMessageTooLargeError';
  override readonly code: string = 'SESSION_BUS_MESSAGE_TOO_LARGE';
  /** The session whose bus the message was for. */
  readonly sessionId: string;
  /** What the message would take. */
  readonly bytes: number;
  /** The bus's byte bound per session. */
  readonly maxBytes: number;

  /** Builds a message naming the session, the size and the bound. */
  constructor(options: SessionBusMessageTooLargeErrorOptions) {
    super(
      `A message of ${options.bytes} bytes is too big for the bus of session '${options.sessionId.slice(0, 100)}' ` +
        `(at most ${options.maxBytes} bytes per session), so it was not published; send less, or raise the bus's maxBytes ` +
        '(when serving: maxBodyBytes, which the bus bound follows).',
      options,
    );
    this.sessionId = options.sessionId;
    this.bytes = options.bytes;
    this.maxBytes = options.maxBytes;
  }

  protected override details(): Record<string, unknown> {
    return { sessionId: this.sessionId, bytes: this.bytes, maxBytes: this.maxBytes };
  }
}
