import type { ProtolinkErrorOptions } from './protolink-error';
import { ProtolinkError } from './protolink-error';

/** Options of policy errors: the decision that led to them, as plain data. */
export interface ActionPolicyErrorOptions extends ProtolinkErrorOptions {
  /** The policy decision (its `toDict()` form or the decision object itself). */
  decision?: unknown;
  /** The action that was refused. */
  action?: unknown;
}

/** A call stopped by the capability policy or the approval step. */
export class ActionPolicyError extends ProtolinkError {
  override readonly name: string = 'ActionPolicyError';
  override readonly code: string = 'ACTION_POLICY';
  /** The policy decision behind the error. */
  readonly decision: unknown;
  /** The refused action. */
  readonly action: unknown;

  constructor(message: string, options: ActionPolicyErrorOptions = {}) {
    super(message, options);
    this.decision = options.decision;
    this.action = options.action;
  }
}
