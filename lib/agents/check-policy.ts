import { CapabilityPolicy } from '../policy/capability-policy';
import { evaluatePolicy } from '../policy/evaluate-policy';
import { narrowByPermissions } from '../policy/narrow-by-permissions';
import type { PolicyDecision } from '../policy/policy-decision';
import { ToolInputError } from '../errors/tool-input-error';
import { raceCancellation } from '../runtime/race-cancellation';
import { RunContext } from '../runtime/run-context';
import type { ToolCallHost } from './execute-tool-call';
import { prepareToolCall } from './prepare-tool-call';

/** What a dry run needs from its agent: the tool lookup and the policy. */
export type PolicyCheckHost = Pick<ToolCallHost, 'resolveTool' | 'policy'>;

/**
 * Asks the policy what it would decide for a call, without running anything: looks the tool up,
 * validates the arguments, builds the action (action builders run, so previews and rewritten arguments
 * are what the policy sees) and evaluates the policy with the run's permissions applied. No approval
 * handler is asked, no budget is charged, no event is emitted and the tool is never called.
 *
 * @throws ToolInputError when `context` is not a RunContext; ToolNotFoundError, ToolValidationError, ToolDefinitionError, ActionPolicyError (a policy that
 *   fails), or ToolCancelledError when the run is canceled.
 */
export async function checkToolPolicy(
  host: PolicyCheckHost,
  name: string,
  rawArgs: unknown,
  context: RunContext,
): Promise<PolicyDecision> {
  if (!(context instanceof RunContext)) {
    throw new ToolInputError(
      `checkPolicy('${name}', args, context) needs a RunContext as context; create one with new RunContext({ permissions, signal }) or leave it out.`,
    );
  }
  const tool = host.resolveTool(name);
  context.throwIfCanceled(name);
  const preparing = prepareToolCall(tool, rawArgs, context);
  const prepared =
    preparing instanceof Promise
      ? await raceCancellation(context, preparing, `Preparing the action of tool '${name}'`, name)
      : preparing;
  const evaluated = evaluatePolicy(host.policy, prepared.action, context);
  const decision =
    evaluated instanceof Promise
      ? await raceCancellation(context, evaluated, `The policy decision for tool '${name}'`, name)
      : evaluated;
  // CapabilityPolicy applies the run's permissions itself; any other policy has them applied here.
  return host.policy instanceof CapabilityPolicy
    ? decision
    : narrowByPermissions(decision, prepared.action, context);
}
