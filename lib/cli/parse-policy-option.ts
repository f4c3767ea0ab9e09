import { ToolInputError } from '../errors/tool-input-error';
import { CapabilityPolicy } from '../policy/capability-policy';
import type { PolicyEffectInput } from '../capabilities/policy-effect';

/**
 * Builds the policy of `--policy '<json rules>'` and `--default-effect <effect>`; undefined when neither is
 * given (the module's own policy stands).
 *
 * @throws ToolInputError for rules that are not a JSON object of effects, or an unknown effect.
 */
export function parsePolicyOption(
  rules: string | undefined,
  defaultEffect: string | undefined,
): CapabilityPolicy | undefined {
  if (rules === undefined && defaultEffect === undefined) return undefined;
  let parsed: unknown = {};
  if (rules !== undefined) {
    try {
      parsed = JSON.parse(rules);
    } catch (error) {
      throw new ToolInputError(
        `--policy is not valid JSON (${(error as Error).message}). Example: --policy '{"network.read": "allow", "*": "deny"}'`,
        {
          cause: error,
        },
      );
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ToolInputError(
      `--policy must be a JSON object of capability rules, e.g. '{"records.write": "require_approval"}'.`,
    );
  }
  return new CapabilityPolicy(
    parsed as Record<string, PolicyEffectInput>,
    defaultEffect === undefined ? {} : { defaultEffect: defaultEffect as PolicyEffectInput },
  );
}
