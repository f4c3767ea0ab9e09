import { BudgetExceededError } from '../errors/budget-exceeded-error';
import { ToolInputError } from '../errors/tool-input-error';

/** Limits of one run. Every field is optional; an absent field means no limit. */
export interface RunBudget {
  /** Most tool calls through this context (and its children). */
  maxToolCalls?: number;
  /** Most steps of the model loop. */
  maxSteps?: number;
  /** Most model calls. */
  maxLlmCalls?: number;
  /** Wall-clock limit; the context cancels itself when it passes. */
  maxRuntimeSeconds?: number;
}

/** What a run has used so far. */
export interface RunUsage {
  toolCalls: number;
  steps: number;
  llmCalls: number;
}

const NO_BUDGET: Readonly<RunBudget> = Object.freeze({});

const COUNTERS = { maxToolCalls: 'toolCalls', maxSteps: 'steps', maxLlmCalls: 'llmCalls' } as const;

/**
 * Checks a budget object: counts must be non-negative integers, the runtime a positive number.
 *
 * @throws ToolInputError naming the field.
 */
export function normalizeBudget(budget: RunBudget | null | undefined): Readonly<RunBudget> {
  if (budget === null || budget === undefined) return NO_BUDGET;
  if (typeof budget !== 'object')
    throw new ToolInputError('A run budget must be an object such as { maxToolCalls: 10 }.');
  const result: RunBudget = {};
  for (const [key, value] of Object.entries(budget)) {
    if (value === undefined || value === null) continue;
    if (key in COUNTERS) {
      if (!Number.isInteger(value) || (value as number) < 0) {
        throw new ToolInputError(
          `budget.${key} must be a non-negative integer, got ${JSON.stringify(value)}.`,
        );
      }
    } else if (key === 'maxRuntimeSeconds') {
      if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
        throw new ToolInputError(
          `budget.maxRuntimeSeconds must be a positive number of seconds, got ${JSON.stringify(value)}.`,
        );
      }
    } else {
      throw new ToolInputError(
        `budget.${key} is not a budget field; use maxToolCalls, maxSteps, maxLlmCalls or maxRuntimeSeconds.`,
      );
    }
    (result as Record<string, number>)[key] = value as number;
  }
  return Object.freeze(result);
}

/** Counts usage against a budget; a child ledger also charges its parent's. */
export class BudgetLedger {
  readonly usage: RunUsage = { toolCalls: 0, steps: 0, llmCalls: 0 };

  constructor(
    readonly budget: Readonly<RunBudget>,
    readonly parent?: BudgetLedger,
  ) {}

  /**
   * Charges one unit of a counter, here and in every parent; the charge that would exceed a limit is not made.
   *
   * @throws BudgetExceededError naming the limit.
   */
  charge(limit: keyof typeof COUNTERS, what: string): void {
    this.check(limit, what);
    const counter = COUNTERS[limit];
    this.usage[counter] += 1;
    for (let ledger = this.parent; ledger; ledger = ledger.parent) ledger.usage[counter] += 1;
  }

  /**
   * Sets the counters from a saved `usage` record (`RunContext.fromDict`): known counters only, whole numbers.
   *
   * @throws ToolInputError naming `where` and the field.
   */
  restoreUsage(usage: unknown, where: string): void {
    if (typeof usage !== 'object' || usage === null)
      throw new ToolInputError(`${where}: usage must be an object of counters.`);
    for (const [key, value] of Object.entries(usage)) {
      if (!Object.prototype.hasOwnProperty.call(this.usage, key)) {
        throw new ToolInputError(
          `${where}: usage.${key} is not a counter; the counters are ${Object.keys(this.usage).join(', ')}.`,
        );
      }
      if (!Number.isSafeInteger(value) || (value as number) < 0) {
        throw new ToolInputError(
          `${where}: usage.${key} must be a whole number of at least 0, got ${JSON.stringify(value)}.`,
        );
      }
      this.usage[key as keyof RunUsage] = value as number;
    }
  }

  /**
   * Checks that one more unit of a counter fits, here and in every parent, without charging it.
   *
   * @throws BudgetExceededError naming the limit.
   */
  check(limit: keyof typeof COUNTERS, what: string): void {
    assertRoom(this, limit, what);
    for (let ledger = this.parent; ledger; ledger = ledger.parent) assertRoom(ledger, limit, what);
  }
}

function assertRoom(ledger: BudgetLedger, limit: keyof typeof COUNTERS, what: string): void {
  const maximum = ledger.budget[limit];
  const used = ledger.usage[COUNTERS[limit]];
  if (maximum !== undefined && used >= maximum) {
    throw new BudgetExceededError(
      `The run's budget allows ${maximum} ${COUNTERS[limit].replace(/([A-Z])/g, ' $1').toLowerCase()} (${limit}); ${what} would exceed it. Raise budget.${limit} or do less in one run.`,
      { limit, maximum, used },
    );
  }
}
