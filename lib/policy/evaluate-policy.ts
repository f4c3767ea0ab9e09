import { ActionPolicyError } from '../errors/action-policy-error';
import { ProtolinkError } from '../errors/protolink-error';
import { isPolicyEffect } from '../capabilities/policy-effect';
import type { RunAction } from '../runtime/run-action';
import type { RunContext } from '../runtime/run-context';
import type { Policy } from './policy';
import { PolicyDecision } from './policy-decision';

/**
 * Asks a policy about an action, failing closed: a policy that throws, rejects, or returns something
 * other than a decision with a valid effect stops the call with an {@link ActionPolicyError}.
 *
 * @throws ActionPolicyError when the policy fails; Protolink errors it throws propagate unchanged.
 */
export function evaluatePolicy(
  policy: Policy,
  action: RunAction,
  context: RunContext,
): PolicyDecision | Promise<PolicyDecision> {
  let returned: unknown;
  try {
    returned = policy.evaluate(action, context);
  } catch (error) {
    throw toPolicyFailure(policy, action, error);
  }
  if (returned instanceof PolicyDecision) return returned;
  if (returned && typeof (returned as Promise<unknown>).then === 'function') {
    return (returned as Promise<unknown>).then(
      (value) => checkDecision(policy, action, value),
      (error: unknown) => {
        throw toPolicyFailure(policy, action, error);
      },
    );
  }
  return checkDecision(policy, action, returned);
}

function checkDecision(policy: Policy, action: RunAction, value: unknown): PolicyDecision {
  if (value instanceof PolicyDecision) return value;
  if (typeof value === 'object' && value !== null && isPolicyEffect((value as { effect?: unknown }).effect)) {
    return new PolicyDecision({ policyName: policyName(policy), ...(value as { effect: string }) });
  }
  const shown = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
  throw new ActionPolicyError(
    `Policy '${policyName(policy)}' returned ${shown} for tool '${action.name}' instead of a PolicyDecision with effect 'allow', 'deny' or 'require_approval'; the tool did not run.`,
    { toolName: action.name, action: action.toDict() },
  );
}

function toPolicyFailure(policy: Policy, action: RunAction, error: unknown): ProtolinkError {
  if (error instanceof ProtolinkError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ActionPolicyError(
    `Policy '${policyName(policy)}' failed while evaluating tool '${action.name}' (${message}); the tool did not run.`,
    {
      cause: error,
      toolName: action.name,
      action: action.toDict(),
    },
  );
}

function policyName(policy: Policy): string {
  return typeof policy.name === 'string' && policy.name
    ? policy.name
    : (policy.constructor?.name ?? 'policy');
}
