import { ActionDeniedError } from '../errors/action-denied-error';
import { ActionPolicyError } from '../errors/action-policy-error';
import { ApprovalRequiredError } from '../errors/approval-required-error';
import { ProtolinkError } from '../errors/protolink-error';
import { raceCancellation } from '../runtime/race-cancellation';
import type { RunContext } from '../runtime/run-context';
import { ApprovalDecision } from './approval-decision';
import type { ApprovalHandler } from './approval-handler';
import type { ApprovalRequest } from './approval-request';
import { takeExternalApproval } from './external-approval';

/**
 * Asks the approval handler about a request and checks its answer, failing closed: no handler, a denial,
 * a thrown error, a wrong return type, a decision for another request id, or no answer before the run is
 * canceled (or its deadline passes) all keep the tool from running.
 *
 * @throws ApprovalRequiredError without a handler; ActionDeniedError when denied; ActionPolicyError when
 *   the handler fails or answers wrongly; ToolCancelledError when the run is canceled while waiting.
 */
export async function requestApproval(
  handler: ApprovalHandler | undefined,
  request: ApprovalRequest,
  context: RunContext,
): Promise<ApprovalDecision> {
  const { action } = request;
  const details = {
    toolName: action.name,
    action: action.toDict(),
    decision: request.policyDecision.toDict(),
  };
  // A framework bridge may have collected the approval through the framework's own flow for this call.
  const external = takeExternalApproval(request, context);
  if (external) {
    context.throwIfCanceled(action.name);
    return external;
  }
  if (!handler) {
    throw new ApprovalRequiredError(
      `Action '${action.name}' requires approval (${request.policyDecision.reason}) and no approval handler is configured; pass approvalHandler to the Agent. The tool did not run.`,
      details,
    );
  }
  const answer = await waitForAnswer(handler, request, context);
  let decision: ApprovalDecision;
  if (typeof answer === 'boolean')
    decision = new ApprovalDecision({ approved: answer, requestId: request.requestId });
  else if (answer instanceof ApprovalDecision) decision = answer;
  else {
    const shown = answer === null ? 'null' : Array.isArray(answer) ? 'an array' : typeof answer;
    throw new ActionPolicyError(
      `The approval handler returned ${shown} for tool '${action.name}'; it must return an ApprovalDecision or a boolean. The tool did not run.`,
      details,
    );
  }
  if (decision.requestId !== request.requestId) {
    throw new ActionPolicyError(
      `The approval handler answered request '${decision.requestId}' but was asked about '${request.requestId}' (tool '${action.name}'); the tool did not run. Return new ApprovalDecision({ approved, requestId: request.requestId }).`,
      details,
    );
  }
  context.throwIfCanceled(action.name);
  if (!decision.approved) {
    // Without a reason of the approver's own, say it refused: the policy's reason ("Approval required for
    // capabilities: …") read as if nobody had been asked.
    throw new ActionDeniedError(
      `Action '${action.name}' denied: ${decision.reason ?? 'the approver refused it (no reason given). The tool did not run.'}`,
      {
        ...details,
        decision: { ...details.decision, approval: decision.toDict() },
      },
    );
  }
  return decision;
}

function waitForAnswer(
  handler: ApprovalHandler,
  request: ApprovalRequest,
  context: RunContext,
): Promise<unknown> {
  const toolName = request.action.name;
  const fail = (error: unknown): ProtolinkError => {
    if (error instanceof ProtolinkError) return error;
    const message = error instanceof Error ? error.message : String(error);
    return new ActionPolicyError(
      `The approval handler failed for tool '${toolName}' (${message}); the tool did not run.`,
      {
        cause: error,
        toolName,
        action: request.action.toDict(),
      },
    );
  };
  let answer: unknown;
  try {
    context.throwIfCanceled(toolName);
    answer = handler(request, context);
  } catch (error) {
    return Promise.reject(fail(error));
  }
  if (!answer || typeof (answer as Promise<unknown>).then !== 'function') return Promise.resolve(answer);
  return raceCancellation(
    context,
    answer as PromiseLike<unknown>,
    `The approval for tool '${toolName}'`,
    toolName,
  ).catch((error: unknown) => {
    throw fail(error);
  });
}
