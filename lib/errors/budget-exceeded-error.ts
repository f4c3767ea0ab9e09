import type { ProtolinkErrorOptions } from './protolink-error';
import { ProtolinkError } from './protolink-error';

/** Options of {@link BudgetExceededError}. */
export interface BudgetExceededErrorOptions extends ProtolinkErrorOptions {
  /** The budget field that ran out (`maxToolCalls`, `maxSteps`, `maxLlmCalls`, `maxRuntimeSeconds`). */
  limit: string;
  /** The configured maximum. */
  maximum: number;
  /** What the run had used when it stopped. */
  used?: number;
  /** A trace of what happened before the budget ran out (e.g. the tool loop's calls). */
  trace?: unknown;
}

/** A run exceeded its budget; the call that would exceed it does not run. */
export class BudgetExceededError extends ProtolinkError {
  override readonly name: string = 'BudgetExceededError';
  override readonly code: string = 'BUDGET_EXCEEDED';
  /** The budget field that ran out. */
  readonly limit: string;
  /** The configured maximum. */
  readonly maximum: number;
  /** What was used. */
  readonly used: number | undefined;
  /** What happened before the budget ran out. */
  readonly trace: unknown;

  constructor(message: string, options: BudgetExceededErrorOptions) {
    super(message, options);
    this.limit = options.limit;
    this.maximum = options.maximum;
    this.used = options.used;
    this.trace = options.trace;
  }

  protected override details(): Record<string, unknown> {
    return {
      limit: this.limit,
      maximum: this.maximum,
      ...(this.used === undefined ? {} : { used: this.used }),
    };
  }
}
