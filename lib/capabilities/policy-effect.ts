import { ToolInputError } from '../errors/tool-input-error';

/** What a policy decides for an action: run it, refuse it, or ask an approver first. */
export type PolicyEffect = 'allow' | 'deny' | 'require_approval';

/** A rule value as written by people: an effect, one of its aliases, a boolean, or `{ effect }`. */
export type PolicyEffectInput = PolicyEffect | string | boolean | { effect: string | boolean };

// Maps, not object literals: a rule value such as 'constructor' or '__proto__' must not find a prototype
// member and pass for an effect.
const ALIASES: ReadonlyMap<string, PolicyEffect> = new Map<string, PolicyEffect>([
  ['allow', 'allow'],
  ['allowed', 'allow'],
  ['true', 'allow'],
  ['deny', 'deny'],
  ['denied', 'deny'],
  ['false', 'deny'],
  ['require_approval', 'require_approval'],
  ['requires_approval', 'require_approval'],
  ['approval', 'require_approval'],
  ['approve', 'require_approval'],
  ['ask', 'require_approval'],
]);

const RANK: ReadonlyMap<PolicyEffect, number> = new Map<PolicyEffect, number>([
  ['allow', 0],
  ['require_approval', 1],
  ['deny', 2],
]);

/**
 * Reads an effect or alias (`allow`/`allowed`/`true`, `deny`/`denied`/`false`,
 * `require_approval`/`approval`/`ask`), case-insensitive, trimmed, `-` read as `_`; booleans and
 * `{ effect }` objects are accepted too.
 *
 * @throws ToolInputError naming `field` when the value is not an effect.
 */
export function toPolicyEffect(value: unknown, field: string): PolicyEffect {
  if (typeof value === 'boolean') return value ? 'allow' : 'deny';
  if (typeof value === 'string') {
    const effect = ALIASES.get(value.trim().toLowerCase().replace(/-/g, '_'));
    if (effect) return effect;
  } else if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'effect' in value) {
    return toPolicyEffect((value as { effect: unknown }).effect, `${field}.effect`);
  }
  const shown = typeof value === 'string' ? JSON.stringify(value) : value === null ? 'null' : typeof value;
  throw new ToolInputError(
    `${field} has the unsupported policy effect ${shown}; use 'allow', 'deny' or 'require_approval' (aliases: allowed/true, denied/false, approval/ask).`,
  );
}

/** Whether a value is one of the three canonical effects. */
export function isPolicyEffect(value: unknown): value is PolicyEffect {
  return value === 'allow' || value === 'deny' || value === 'require_approval';
}

/** Returns the more restrictive of two effects (deny > require_approval > allow). */
export function mostRestrictiveEffect(first: PolicyEffect, second: PolicyEffect): PolicyEffect {
  // Anything that is not an effect ranks as deny: a forged value never loosens a decision.
  return rankOf(second) > rankOf(first) ? second : first;
}

function rankOf(effect: PolicyEffect): number {
  return RANK.get(effect) ?? 2;
}
