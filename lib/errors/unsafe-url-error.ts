import type { ProtolinkErrorOptions } from './protolink-error';
import { ToolInputError } from './tool-input-error';

/** Options of {@link UnsafeUrlError}. */
export interface UnsafeUrlErrorOptions extends ProtolinkErrorOptions {
  /** Why the URL was refused, in a short stable phrase (e.g. `private address`). */
  reason: string;
}

/** A URL, host or resolved address that a network tool refuses to reach (SSRF protection). */
export class UnsafeUrlError extends ToolInputError {
  override readonly name: string = 'UnsafeUrlError';
  override readonly code: string = 'UNSAFE_URL';
  /** Why the URL was refused. */
  readonly reason: string;

  constructor(message: string, options: UnsafeUrlErrorOptions) {
    super(message, options);
    this.reason = options.reason;
  }

  protected override details(): Record<string, unknown> {
    return { reason: this.reason };
  }
}
