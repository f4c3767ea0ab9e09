/** Options every Protolink error accepts. */
export interface ProtolinkErrorOptions {
  /** The underlying error, kept for debugging (never serialized into `toJSON()`). */
  cause?: unknown;
  /** The tool the error concerns, when there is one. */
  toolName?: string;
}

/**
 * Root of every error Protolink throws: a literal `name`, a stable string `code`, the `cause`, and a
 * JSON form that is safe to hand to a model or a remote client.
 */
export class ProtolinkError extends Error {
  override readonly name: string = 'ProtolinkError';
  /** Stable machine-readable code, e.g. `TOOL_INPUT`. */
  readonly code: string = 'PROTOLINK_ERROR';
  /** The tool the error concerns, when there is one. */
  readonly toolName: string | undefined;

  constructor(message: string, options: ProtolinkErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.toolName = options.toolName;
  }

  /** Returns a plain object with the error's name, code, message and details (never the stack or cause). */
  toJSON(): Record<string, unknown> {
    const json: Record<string, unknown> = { name: this.name, code: this.code, message: this.message };
    if (this.toolName !== undefined) json.toolName = this.toolName;
    return { ...json, ...this.details() };
  }

  /** Extra serializable fields of a subclass. */
  protected details(): Record<string, unknown> {
    return {};
  }
}
