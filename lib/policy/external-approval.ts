import type { RunContext } from '../runtime/run-context';
import { ApprovalDecision } from './approval-decision';
import type { ApprovalRequest } from './approval-request';

/** An approval given outside Protolink (a framework's own approval flow) for one call of one tool. */
export interface ExternalApproval {
  /** The tool the approval is for; a request for any other tool is not answered by it. */
  readonly toolName: string;
  /** Who approved (e.g. `'ai-sdk'`), recorded as the decision's `decidedBy`. */
  readonly decidedBy: string;
  /** The approver's reason, when one was given. */
  readonly reason?: string;
  /** Details recorded on the decision (e.g. the framework's approval id). */
  readonly metadata?: Record<string, unknown>;
}

const grants = new WeakMap<RunContext, ExternalApproval>();

/**
 * Records that the next approval request for `approval.toolName` in this run context was already approved
 * outside Protolink. Only bridges call this, on a context they created for that one call.
 */
export function grantExternalApproval(context: RunContext, approval: ExternalApproval): void {
  grants.set(context, Object.freeze({ ...approval }));
}

/**
 * Returns (and uses up) the approval granted to this context for the request's tool, as an approved
 * {@link ApprovalDecision} answering the request; undefined when there is none.
 */
export function takeExternalApproval(
  request: ApprovalRequest,
  context: RunContext,
): ApprovalDecision | undefined {
  const approval = grants.get(context);
  if (!approval || approval.toolName !== request.action.name) return undefined;
  grants.delete(context);
  return new ApprovalDecision({
    approved: true,
    requestId: request.requestId,
    reason: approval.reason ?? null,
    decidedBy: approval.decidedBy,
    metadata: approval.metadata,
  });
}
