import type { ProtolinkErrorOptions } from './protolink-error';
import { ProtolinkError } from './protolink-error';

/** Options of {@link ToolCancelledError}. */
export interface ToolCancelledErrorOptions extends ProtolinkErrorOptions {
  /** Why the run was canceled, when a reason was given. */
  reason?: string;
  /** Whether the tool finished after cancellation (its result is then in `result`). */
  hasResult?: boolean;
  /** The result that arrived after cancellation, so a completed side effect is never hidden. */
  result?: unknown;
}

/** The run was canceled before or while the tool ran. */
export class ToolCancelledError extends ProtolinkError {
  override readonly name: string = 'ToolCancelledError';
  override readonly code: string = 'TOOL_CANCELLED';
  /** Why the run was canceled. */
  readonly reason: string | undefined;
  /** Whether the tool completed after cancellation (also set later, when it finishes after the rejection). */
  hasResult: boolean;
  /** The result that arrived after cancellation. */
  result: unknown;

  constructor(message: string, options: ToolCancelledErrorOptions = {}) {
    super(message, options);
    this.reason = options.reason;
    this.hasResult = options.hasResult ?? false;
    this.result = options.result;
  }

  /**
   * Records a result that arrived after the call had already been rejected, so a completed side effect is
   * never hidden: the runtime calls it; callers read `hasResult` and `result`.
   */
  keepLateResult(result: unknown): void {
    this.hasResult = true;
    this.result = result;
  }

  protected override details(): Record<string, unknown> {
    const details: Record<string, unknown> = { hasResult: this.hasResult };
    if (this.reason !== undefined) details.reason = this.reason;
    return details;
  }
}
