import type { RunContext } from '../runtime/run-context';
import type { ApprovalDecision } from './approval-decision';
import type { ApprovalRequest } from './approval-request';

/**
 * Asked when the policy says `require_approval`: returns an {@link ApprovalDecision} for the request's id,
 * or a boolean, sync or async. Throwing, returning anything else, answering another request id, or not
 * answering before the run is canceled or its deadline passes never lets the tool run.
 */
export type ApprovalHandler = (
  request: ApprovalRequest,
  context: RunContext,
) => ApprovalDecision | boolean | Promise<ApprovalDecision | boolean>;
