import type { ValidationIssue } from '../../errors/tool-validation-error';
import type { ValidationLimits } from './validation-limits';

/** The work of one validation pass, shared by the pass and every trial it starts. */
interface ValidationWork {
  visits: number;
  exhausted: boolean;
}

/** Mutable bookkeeping of one validation pass: issues found and the node budget spent. */
export class ValidationState {
  readonly issues: ValidationIssue[] = [];
  nodes = 0;
  overflow = 0;
  private readonly work: ValidationWork;

  constructor(
    readonly limits: ValidationLimits,
    work?: ValidationWork,
  ) {
    this.work = work ?? { visits: 0, exhausted: false };
  }

  /**
   * Starts a trial (one branch of `anyOf`/`oneOf`/`not` or of a type list): its own issues and node count,
   * but the pass's work budget, so failing branches cannot multiply the work (`anyOf` nested in `anyOf`).
   */
  startTrial(): ValidationState {
    const trial = new ValidationState(this.limits, this.work);
    trial.nodes = this.nodes;
    return trial;
  }

  /** Whether the pass stopped because the schema made it visit more than `maxVisits` values. */
  get workExhausted(): boolean {
    return this.work.exhausted;
  }

  /** Records one problem (past `maxIssues`, only counts it). */
  addIssue(path: string, message: string): void {
    if (this.issues.length < this.limits.maxIssues) this.issues.push({ path, message });
    else this.overflow += 1;
  }

  /** Counts one value against `maxNodes` and `maxVisits`; returns false (with an issue) once a budget is spent. */
  countNode(path: string): boolean {
    this.nodes += 1;
    this.work.visits += 1;
    if (this.work.visits > this.limits.maxVisits) {
      this.work.exhausted = true;
      if (this.issues.length === 0) this.addIssue(path, TOO_COMPLEX);
      return false;
    }
    if (this.nodes === this.limits.maxNodes + 1) {
      this.addIssue(path, `the arguments hold more than ${this.limits.maxNodes} values; send less data`);
    }
    return this.nodes <= this.limits.maxNodes;
  }

  /** Returns the issues, with a closing summary when some were not listed. */
  collectIssues(): ValidationIssue[] {
    if (this.overflow === 0) return this.issues;
    return [...this.issues, { path: '', message: `${this.overflow} more problem(s) not listed` }];
  }
}

/** The message of a pass that ran out of work budget. */
export const TOO_COMPLEX =
  'the arguments are too deeply nested or ambiguous to check against this schema; send simpler data';

/** Joins a property name or array index to a dotted path. */
export function joinPath(path: string, key: string | number): string {
  return path === '' ? String(key) : `${path}.${key}`;
}
