import { matchCapabilityRule } from '../capabilities/capability-rules';
import { mostRestrictiveEffect } from '../capabilities/policy-effect';
import type { PolicyEffect } from '../capabilities/policy-effect';
import type { RunAction } from '../runtime/run-action';
import type { RunContext } from '../runtime/run-context';
import { PolicyDecision } from './policy-decision';

/**
 * Applies the run's permissions (`RunContext.permissions`, its parents' first) to a decision made by a
 * custom policy, so they narrow every policy, not only `CapabilityPolicy` (which applies them itself).
 * Returns the decision unchanged when no permission rule is more restrictive.
 */
export function narrowByPermissions(
  decision: PolicyDecision,
  action: RunAction,
  context: RunContext,
): PolicyDecision {
  const layers = context.permissionRules();
  if (layers.length === 0 || decision.effect === 'deny') return decision;
  let effect: PolicyEffect = decision.effect;
  const narrowedBy: string[] = [];
  for (const capability of action.capabilities) {
    for (const layer of layers) {
      const match = matchCapabilityRule(layer, capability);
      if (match && mostRestrictiveEffect(effect, match.effect) !== effect) {
        effect = match.effect;
        narrowedBy.push(capability);
      }
    }
  }
  if (effect === decision.effect) return decision;
  return new PolicyDecision({
    effect,
    reason: `Run permissions narrowed '${decision.policyName}' (${decision.reason}) for: ${narrowedBy.join(', ')}`,
    policyName: decision.policyName,
    matchedCapabilities: narrowedBy,
    metadata: { ...decision.metadata, narrowedByPermissions: narrowedBy },
  });
}
