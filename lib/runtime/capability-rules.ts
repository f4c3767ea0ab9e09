import { ToolInputError } from '../errors/tool-input-error';
import { toPolicyEffect } from './policy-effect';
import type { PolicyEffect } from './policy-effect';

/** Rules compiled for matching: exact names, `prefix.*` patterns (longest first), `*`, and a default. */
export interface CompiledCapabilityRules {
  /** Rules by exact capability name. */
  readonly exact: ReadonlyMap<string, PolicyEffect>;
  /** `prefix.*` rules as `[prefix including the dot, effect]`, longest prefix first. */
  readonly prefixes: readonly (readonly [string, PolicyEffect])[];
  /** The `*` rule, when there is one. */
  readonly wildcard: PolicyEffect | undefined;
  /** The `default` entry (only where defaults are allowed, e.g. RunContext permissions). */
  readonly defaultEffect: PolicyEffect | undefined;
  /** The rules in canonical form (`{ capability: effect }`), for serialization. */
  readonly canonical: Readonly<Record<string, PolicyEffect>>;
}

/** Where a matched effect came from. */
export type CapabilityRuleSource = 'exact' | 'prefix' | 'wildcard' | 'default';

/** The effect of one capability under a rule set, and which rule produced it. */
export interface CapabilityRuleMatch {
  /** The effect. */
  readonly effect: PolicyEffect;
  /** Which rule produced it (`exact`, `prefix`, `wildcard`, `default`). */
  readonly source: CapabilityRuleSource;
  /** The rule key that matched (`network.read`, `network.*`, `*`, `default`). */
  readonly rule: string;
}

/**
 * Checks and compiles capability rules. Keys are exact capability names, `prefix.*` patterns or `*`;
 * values are effects or aliases. With `allowDefault`, the key `default` sets the rule set's default.
 *
 * @throws ToolInputError naming the field of the first bad key or value.
 */
export function compileCapabilityRules(
  rules: unknown,
  field: string,
  options: { allowDefault?: boolean } = {},
): CompiledCapabilityRules {
  if (rules === null || rules === undefined) rules = {};
  if (typeof rules !== 'object' || Array.isArray(rules) || rules instanceof Map) {
    throw new ToolInputError(
      `${field} must map capabilities to effects, e.g. { 'network.read': 'allow', 'records.*': 'require_approval' }.`,
    );
  }
  const exact = new Map<string, PolicyEffect>();
  const prefixes: [string, PolicyEffect][] = [];
  const canonical: Record<string, PolicyEffect> = {};
  let wildcard: PolicyEffect | undefined;
  let defaultEffect: PolicyEffect | undefined;
  for (const [key, value] of Object.entries(rules as Record<string, unknown>)) {
    const effect = toPolicyEffect(value, `${field}['${key}']`);
    canonical[key] = effect;
    if (options.allowDefault && key === 'default') defaultEffect = effect;
    else if (key === '*') wildcard = effect;
    else if (key.endsWith('.*') && key.length > 2 && !key.slice(0, -2).includes('*'))
      prefixes.push([key.slice(0, -1), effect]);
    else if (key.trim() === '' || key.includes('*')) {
      throw new ToolInputError(
        `${field} has the rule key ${JSON.stringify(key)}, which is not a capability pattern; use an exact name ('network.read'), a prefix pattern ('network.*') or '*'.`,
      );
    } else exact.set(key, effect);
  }
  prefixes.sort((first, second) => second[0].length - first[0].length);
  return Object.freeze({
    exact,
    prefixes: Object.freeze(prefixes),
    wildcard,
    defaultEffect,
    canonical: Object.freeze(canonical),
  });
}

/** Finds the rule for a capability: exact, then the longest `prefix.*`, then `*`, then the default. */
export function matchCapabilityRule(
  rules: CompiledCapabilityRules,
  capability: string,
): CapabilityRuleMatch | undefined {
  const exact = rules.exact.get(capability);
  if (exact !== undefined) return { effect: exact, source: 'exact', rule: capability };
  for (const [prefix, effect] of rules.prefixes) {
    if (capability.startsWith(prefix)) return { effect, source: 'prefix', rule: `${prefix}*` };
  }
  if (rules.wildcard !== undefined) return { effect: rules.wildcard, source: 'wildcard', rule: '*' };
  if (rules.defaultEffect !== undefined)
    return { effect: rules.defaultEffect, source: 'default', rule: 'default' };
  return undefined;
}
