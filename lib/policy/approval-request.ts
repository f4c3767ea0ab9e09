import { randomUUID } from '../runtime/random-uuid';
import { copyData, deepFreeze } from '../runtime/deep-freeze';
import type { RunAction, RunActionDict } from '../runtime/run-action';
import type { PolicyDecision, PolicyDecisionDict } from './policy-decision';

/** Options of {@link ApprovalRequest}. */
export interface ApprovalRequestOptions {
  /** The action awaiting approval (its `artifacts` hold the previews). */
  action: RunAction;
  /** The policy decision that asked for approval. */
  policyDecision: PolicyDecision;
  /** The run the action belongs to. */
  runId: string;
  /** Restored id (a new `approval_…` id when absent). */
  requestId?: string;
  /** Restored creation time, ISO 8601 (now when absent). */
  createdAt?: string;
  /** Free-form details. */
  metadata?: Record<string, unknown>;
}

/** The JSON form of an {@link ApprovalRequest}. */
export interface ApprovalRequestDict {
  requestId: string;
  action: RunActionDict;
  policyDecision: PolicyDecisionDict;
  runId: string;
  createdAt: string;
  metadata: Record<string, unknown>;
}

/** What an approval handler is asked: approve this action (with its previews) in this run? Immutable. */
export class ApprovalRequest {
  /** The id the decision must echo back. */
  readonly requestId: string;
  /** The action awaiting approval. */
  readonly action: RunAction;
  /** The decision that asked for approval. */
  readonly policyDecision: PolicyDecision;
  /** The run the action belongs to. */
  readonly runId: string;
  /** When the request was made (ISO 8601). */
  readonly createdAt: string;
  /** Free-form details. */
  readonly metadata: Readonly<Record<string, unknown>>;

  constructor(options: ApprovalRequestOptions) {
    this.requestId = options.requestId ?? `approval_${randomUUID()}`;
    this.action = options.action;
    this.policyDecision = options.policyDecision;
    this.runId = options.runId;
    this.createdAt = options.createdAt ?? new Date().toISOString();
    this.metadata = deepFreeze(copyData(options.metadata ?? {}));
    Object.freeze(this);
  }

  /** Returns the JSON form. */
  toDict(): ApprovalRequestDict {
    return {
      requestId: this.requestId,
      action: this.action.toDict(),
      policyDecision: this.policyDecision.toDict(),
      runId: this.runId,
      createdAt: this.createdAt,
      metadata: copyData(this.metadata) as Record<string, unknown>,
    };
  }
}
