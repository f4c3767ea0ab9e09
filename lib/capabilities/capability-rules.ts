import { ToolInputError } from '../errors/tool-input-error';
import { readCapabilityName, showCapability } from './capability-name';
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
  const canonical: Record<string, PolicyEffect> = Object.create(null) as Record<string, PolicyEffect>;
  const writtenAs = new Map<string, string>();
  let wildcard: PolicyEffect | undefined;
  let defaultEffect: PolicyEffect | undefined;
  for (const [written, value] of Object.entries(rules as Record<string, unknown>)) {
    const key = toRuleKey(written, field, options.allowDefault === true);
    const effect = toPolicyEffect(value, `${field}['${written}']`);
    const earlier = writtenAs.get(key);
    if (earlier !== undefined) {
      throw new ToolInputError(
        `${field} has the rule keys ${showCapability(earlier)} and ${showCapability(written)}, which are the same rule once lower-cased; keep one ('${key}').`,
      );
    }
    writtenAs.set(key, written);
    canonical[key] = effect;
    if (options.allowDefault && key === 'default') defaultEffect = effect;
    else if (key === '*') wildcard = effect;
    else if (key.endsWith('.*')) prefixes.push([key.slice(0, -1), effect]);
    else exact.set(key, effect);
  }
  prefixes.sort((first, second) => second[0].length - first[0].length);
  return Object.freeze({
    exact,
    prefixes: Object.freeze(prefixes),
    wildcard,
    defaultEffect,
    canonical: Object.freeze({ ...canonical }),
  });
}

/**
 * Reads one rule key: `*`, `default` (where allowed), an exact capability or a `prefix.*` pattern, the
 * names lower-cased and checked like tool capabilities.
 */
function toRuleKey(written: string, field: string, allowDefault: boolean): string {
  if (written === '*' || (allowDefault && written === 'default')) return written;
  const isPrefix = written.endsWith('.*');
  const stem = isPrefix ? written.slice(0, -2) : written;
  const read = readCapabilityName(stem);
  if (read.ok) return isPrefix ? `${read.name}.*` : read.name;
  const reason = stem.includes('*')
    ? "'*' may only stand alone ('*') or end a prefix pattern ('network.*')"
    : read.reason;
  throw new ToolInputError(
    `${field} has the rule key ${showCapability(written)}, which is not a capability pattern (${reason}); use an exact name ('network.read'), a prefix pattern ('network.*') or '*', in lower-case ASCII words of [a-z0-9_-] joined by dots.`,
  );
}

/**
 * Finds the rule for a capability (normalized, as RunAction keeps them): exact, then the longest
 * `prefix.*` (which also covers the prefix itself), then `*`, then the default.
 */
export function matchCapabilityRule(
  rules: CompiledCapabilityRules,
  capability: string,
): CapabilityRuleMatch | undefined {
  const exact = rules.exact.get(capability);
  if (exact !== undefined) return { effect: exact, source: 'exact', rule: capability };
  for (const [prefix, effect] of rules.prefixes) {
    // `network.*` covers `network` itself as well as everything below it.
    if (capability.startsWith(prefix) || capability === prefix.slice(0, -1))
      return { effect, source: 'prefix', rule: `${prefix}*` };
  }
  if (rules.wildcard !== undefined) return { effect: rules.wildcard, source: 'wildcard', rule: '*' };
  if (rules.defaultEffect !== undefined)
    return { effect: rules.defaultEffect, source: 'default', rule: 'default' };
  return undefined;
}
