import type { ProtolinkErrorOptions } from './protolink-error';
import { ProtolinkError } from './protolink-error';

/** Options of {@link ToolRuntimeError}. */
export interface ToolRuntimeErrorOptions extends ProtolinkErrorOptions {
  /** The provider or server that failed (`brave`, `openai`, an MCP server label). */
  provider?: string;
  /** The HTTP status, when the failure was an HTTP response. */
  status?: number;
  /** Whether trying the same call again later may succeed. */
  retryable?: boolean;
}

/** A provider, HTTP or transport failure while running a tool (the seed's RuntimeError). */
export class ToolRuntimeError extends ProtolinkError {
  override readonly name: string = 'ToolRuntimeError';
  override readonly code: string = 'TOOL_RUNTIME';
  /** The provider or server that failed. */
  readonly provider: string | undefined;
  /** The HTTP status, when there was one. */
  readonly status: number | undefined;
  /** Whether a retry may succeed. */
  readonly retryable: boolean;

  constructor(message: string, options: ToolRuntimeErrorOptions = {}) {
    super(message, options);
    this.provider = options.provider;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
  }

  protected override details(): Record<string, unknown> {
    const details: Record<string, unknown> = { retryable: this.retryable };
    if (this.provider !== undefined) details.provider = this.provider;
    if (this.status !== undefined) details.status = this.status;
    return details;
  }
}
