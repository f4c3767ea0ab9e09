import type { ProtolinkErrorOptions } from './protolink-error';
import { ToolInputError } from './tool-input-error';

/** One problem found in a tool's arguments. */
export interface ValidationIssue {
  /** Dotted path to the offending value (`booking.guests`, `items.0.name`); empty for the root. */
  path: string;
  /** What is wrong, e.g. `must be >= 1`. */
  message: string;
}

/** Options of {@link ToolValidationError}. */
export interface ToolValidationErrorOptions extends ProtolinkErrorOptions {
  /** Every problem found, each with its path. */
  issues: ValidationIssue[];
  /**
   * What the arguments are for, as the message names it (`prompt "review" on MCP server 'docs'`); default
   * `tool '<toolName>'`.
   */
  subject?: string;
}

/** Arguments that do not match a tool's input schema or DTO; lists every problem with its path. */
export class ToolValidationError extends ToolInputError {
  override readonly name: string = 'ToolValidationError';
  override readonly code: string = 'TOOL_VALIDATION';
  /** Every problem found, each with its path. */
  readonly issues: readonly ValidationIssue[];

  constructor(options: ToolValidationErrorOptions) {
    super(ToolValidationError.buildMessage(options), options);
    this.issues = Object.freeze(options.issues.map((issue) => Object.freeze({ ...issue })));
  }

  protected override details(): Record<string, unknown> {
    return { issues: this.issues.map((issue) => ({ ...issue })) };
  }

  private static buildMessage(options: ToolValidationErrorOptions): string {
    const subject = options.subject
      ? `Invalid arguments for ${options.subject}`
      : options.toolName
        ? `Invalid arguments for tool '${options.toolName}'`
        : 'Invalid arguments';
    const lines = options.issues.map((issue) =>
      issue.path ? `${issue.path}: ${issue.message}` : issue.message,
    );
    return `${subject}: ${lines.join('; ')}`;
  }
}
