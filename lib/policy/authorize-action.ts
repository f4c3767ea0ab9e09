import { ActionDeniedError } from '../errors/action-denied-error';
import { lazyRequire } from '../runtime/lazy-require';
import type { RunAction } from '../runtime/run-action';
import { raceCancellation } from '../runtime/race-cancellation';
import type { RunContext } from '../runtime/run-context';
import type { ApprovalDecision } from './approval-decision';
import type { ApprovalHandler } from './approval-handler';
import { ApprovalRequest } from './approval-request';
import { CapabilityPolicy } from './capability-policy';
import { evaluatePolicy } from './evaluate-policy';
import { narrowByPermissions } from './narrow-by-permissions';
import type { Policy } from './policy';
import { PolicyDecision } from './policy-decision';

// Asking an approver loads with the first action that needs approval.
const loadRequestApproval = lazyRequire((): typeof import('./request-approval') =>
  require('./request-approval'),
);

/** Hooks that observe authorization (telemetry); they must not throw. */
export interface AuthorizationObserver {
  /** The policy decided. */
  onDecision?(decision: PolicyDecision): void;
  /** An approver is being asked. */
  onApprovalRequest?(request: ApprovalRequest): void;
  /** The approver answered (or failed: then `decision` is undefined and `error` is set). */
  onApprovalResponse?(request: ApprovalRequest, decision: ApprovalDecision | undefined, error: unknown): void;
}

/** Options of {@link authorizeAction}. */
export interface AuthorizeActionOptions {
  /** The policy to ask. */
  policy: Policy;
  /** The approver for `require_approval` (none → fail closed). */
  approvalHandler?: ApprovalHandler;
  /** Telemetry hooks. */
  observer?: AuthorizationObserver;
}

/** The outcome of a successful authorization. */
export interface ActionAuthorization {
  /** The authorized action. */
  readonly action: RunAction;
  /** The policy's decision. */
  readonly decision: PolicyDecision;
  /** The approval request, when one was made. */
  readonly approvalRequest?: ApprovalRequest;
  /** The approver's decision, when one was made. */
  readonly approvalDecision?: ApprovalDecision;
}

/**
 * Authorizes one action: cancellation check, policy, then (on `require_approval`) the approval handler.
 * Returns (or resolves to) the authorization only when the action may run; a synchronous allow is
 * returned synchronously.
 *
 * @throws ToolCancelledError when the run is canceled (the policy is then never asked);
 *   ActionDeniedError, ApprovalRequiredError or ActionPolicyError when the action may not run.
 */
export function authorizeAction(
  action: RunAction,
  context: RunContext,
  options: AuthorizeActionOptions,
): ActionAuthorization | Promise<ActionAuthorization> {
  context.throwIfCanceled(action.name);
  const evaluated = withPermissions(
    evaluatePolicy(options.policy, action, context),
    options.policy,
    action,
    context,
  );
  // A synchronous allow (the common case) is answered without a microtask hop.
  if (evaluated instanceof PolicyDecision && evaluated.effect === 'allow') {
    options.observer?.onDecision?.(evaluated);
    return { action, decision: evaluated };
  }
  return completeAuthorization(action, context, options, evaluated);
}

/** CapabilityPolicy applies the run's permissions itself; any other policy gets them applied here. */
function withPermissions(
  evaluated: PolicyDecision | Promise<PolicyDecision>,
  policy: Policy,
  action: RunAction,
  context: RunContext,
): PolicyDecision | Promise<PolicyDecision> {
  if (policy instanceof CapabilityPolicy || context.permissionRules().length === 0) return evaluated;
  return evaluated instanceof PolicyDecision
    ? narrowByPermissions(evaluated, action, context)
    : evaluated.then((decision) => narrowByPermissions(decision, action, context));
}

async function completeAuthorization(
  action: RunAction,
  context: RunContext,
  options: AuthorizeActionOptions,
  evaluated: PolicyDecision | Promise<PolicyDecision>,
): Promise<ActionAuthorization> {
  // An async policy that never answers is bounded by the run's cancellation and deadline.
  const decision =
    evaluated instanceof PolicyDecision
      ? evaluated
      : await raceCancellation(
          context,
          evaluated,
          `The policy decision for tool '${action.name}'`,
          action.name,
        );
  options.observer?.onDecision?.(decision);
  if (decision.effect === 'allow') return { action, decision };
  if (decision.effect === 'deny') {
    context.throwIfCanceled(action.name);
    throw new ActionDeniedError(
      `Action '${action.name}' denied: ${decision.reason || `policy '${decision.policyName}' denied it`}`,
      {
        toolName: action.name,
        action: action.toDict(),
        decision: decision.toDict(),
      },
    );
  }
  const request = new ApprovalRequest({ action, policyDecision: decision, runId: context.runId });
  options.observer?.onApprovalRequest?.(request);
  let approvalDecision: ApprovalDecision;
  try {
    approvalDecision = await loadRequestApproval().requestApproval(options.approvalHandler, request, context);
  } catch (error) {
    options.observer?.onApprovalResponse?.(request, undefined, error);
    throw error;
  }
  options.observer?.onApprovalResponse?.(request, approvalDecision, undefined);
  return { action, decision, approvalRequest: request, approvalDecision };
}
