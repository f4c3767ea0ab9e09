import type { RunAction } from '../runtime/run-action';
import type { RunContext } from '../runtime/run-context';
import type { PolicyDecision } from './policy-decision';

/**
 * Decides whether an action may run. `CapabilityPolicy` is the first-party one; custom policies
 * implement the same `evaluate`, sync or async. A policy that throws, or returns something other than a
 * PolicyDecision, never lets the action run.
 */
export interface Policy {
  /** A name for decisions, errors and telemetry. */
  readonly name?: string;
  /** Evaluates one action in its run context. */
  evaluate(action: RunAction, context: RunContext): PolicyDecision | Promise<PolicyDecision>;
}
