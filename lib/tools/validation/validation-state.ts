import type { ValidationIssue } from '../../errors/tool-validation-error';
import type { ValidationLimits } from './validation-limits';

/** Mutable bookkeeping of one validation pass: issues found and the node budget spent. */
export class ValidationState {
  readonly issues: ValidationIssue[] = [];
  nodes = 0;
  overflow = 0;

  constructor(readonly limits: ValidationLimits) {}

  /** Records one problem (past `maxIssues`, only counts it). */
  addIssue(path: string, message: string): void {
    if (this.issues.length < this.limits.maxIssues) this.issues.push({ path, message });
    else this.overflow += 1;
  }

  /** Counts one value against `maxNodes`; returns false (with an issue) once the budget is spent. */
  countNode(path: string): boolean {
    this.nodes += 1;
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

/** Joins a property name or array index to a dotted path. */
export function joinPath(path: string, key: string | number): string {
  return path === '' ? String(key) : `${path}.${key}`;
}
