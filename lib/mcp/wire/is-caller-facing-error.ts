import { ActionDeniedError } from '../../errors/action-denied-error';
import { ActionPolicyError } from '../../errors/action-policy-error';
import { ApprovalRequiredError } from '../../errors/approval-required-error';
import { ProtolinkError } from '../../errors/protolink-error';

/**
 * Returns whether a failed call's error may reach a remote client as is. Protolink errors are written for
 * the caller (ToolValidationError, ActionDeniedError, ApprovalRequiredError, BudgetExceededError,
 * ToolCancelledError, a tool's ToolRuntimeError…), with one exception: a plain {@link ActionPolicyError} is
 * no decision but a policy or approval handler that failed or answered wrongly, and its message quotes
 * whatever that code threw (a connection string, a file path). Anything else is internal too. Internal
 * errors go to the server's `onError`; the client gets a generic message.
 */
export function isCallerFacingError(error: unknown): error is ProtolinkError {
  if (!(error instanceof ProtolinkError)) return false;
  return !isAuthorizationFailure(error);
}

/** Whether the error reports a failing policy or approval handler (not a denial or a missing approver). */
export function isAuthorizationFailure(error: unknown): error is ActionPolicyError {
  return (
    error instanceof ActionPolicyError &&
    !(error instanceof ActionDeniedError) &&
    !(error instanceof ApprovalRequiredError)
  );
}
