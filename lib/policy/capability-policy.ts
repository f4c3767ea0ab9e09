import { ToolInputError } from '../errors/tool-input-error';
import { readCapabilityName } from '../capabilities/capability-name';
import { compileCapabilityRules, matchCapabilityRule } from '../capabilities/capability-rules';
import type { CompiledCapabilityRules } from '../capabilities/capability-rules';
import { mostRestrictiveEffect, toPolicyEffect } from '../capabilities/policy-effect';
import type { PolicyEffect, PolicyEffectInput } from '../capabilities/policy-effect';
import type { RunAction } from '../runtime/run-action';
import type { RunContext } from '../runtime/run-context';
import type { Policy } from './policy';
import { PolicyDecision } from './policy-decision';

/** Options of {@link CapabilityPolicy}. */
export interface CapabilityPolicyOptions {
  /** The effect of a capability that no rule matches (default `allow`, for compatibility). */
  defaultEffect?: PolicyEffectInput;
  /** The policy's name in decisions (default `capability_policy`). */
  name?: string;
}

/** The JSON form of a {@link CapabilityPolicy}. */
export interface CapabilityPolicyDict {
  type: 'capability';
  name: string;
  defaultEffect: PolicyEffect;
  rules: Record<string, PolicyEffect>;
}

const DEFAULT_NAME = 'capability_policy';

/**
 * The first-party policy: rules map a capability or pattern to an effect. Matching: exact, then the
 * longest `prefix.*`, then `*`, then the default effect. An action needing several capabilities gets the
 * most restrictive effect (deny > require_approval > allow); an action with none is allowed; a canceled
 * context is denied. `RunContext.permissions` apply on top and can only narrow.
 */
export class CapabilityPolicy implements Policy {
  /** The policy's name. */
  readonly name: string;
  /** The effect of unmatched capabilities. */
  readonly defaultEffect: PolicyEffect;
  private readonly compiled: CompiledCapabilityRules;
  // Decisions are immutable, so the frequent "no capabilities" decision is built once.
  private readonly noCapabilities: PolicyDecision;

  /** @throws ToolInputError naming the bad rule, default effect or name. */
  constructor(rules?: Record<string, PolicyEffectInput> | null, options: CapabilityPolicyOptions = {}) {
    this.compiled = compileCapabilityRules(rules, 'CapabilityPolicy rules');
    this.defaultEffect = toPolicyEffect(options.defaultEffect ?? 'allow', 'CapabilityPolicy defaultEffect');
    if (options.name !== undefined && (typeof options.name !== 'string' || options.name.trim() === '')) {
      throw new ToolInputError('CapabilityPolicy name must be a non-empty string.');
    }
    this.name = options.name ?? DEFAULT_NAME;
    this.noCapabilities = new PolicyDecision({
      effect: 'allow',
      reason: 'Action declares no protected capabilities',
      policyName: this.name,
    });
    Object.freeze(this);
  }

  /** The rules in canonical form (`{ capability: effect }`). */
  get rules(): Readonly<Record<string, PolicyEffect>> {
    return this.compiled.canonical;
  }

  /**
   * Returns the effect of one capability under this policy's rules alone (the name lower-cased first;
   * `deny` for something that is not a capability name).
   */
  effectOf(capability: string): PolicyEffect {
    const read = readCapabilityName(capability);
    if (!read.ok) return 'deny';
    return matchCapabilityRule(this.compiled, read.name)?.effect ?? this.defaultEffect;
  }

  /** Evaluates an action: see the class description for the rules. Never throws for well-formed input. */
  evaluate(action: RunAction, context?: RunContext): PolicyDecision {
    if (context?.canceled) {
      return new PolicyDecision({
        effect: 'deny',
        reason: context.cancelReason ?? 'Run was canceled',
        policyName: this.name,
        metadata: { canceled: true },
      });
    }
    const capabilities = action.capabilities;
    if (capabilities.length === 0) return this.noCapabilities;
    const layers = context ? context.permissionRules() : [];
    const effects: Record<string, PolicyEffect> = {};
    const sources: Record<string, string> = {};
    let final: PolicyEffect = 'allow';
    for (const capability of [...capabilities].sort()) {
      const match = matchCapabilityRule(this.compiled, capability);
      let effect = match?.effect ?? this.defaultEffect;
      let source = match ? `policy:${match.rule}` : 'policy:default';
      for (const layer of layers) {
        const narrowed = matchCapabilityRule(layer, capability);
        if (narrowed && mostRestrictiveEffect(effect, narrowed.effect) !== effect) {
          effect = narrowed.effect;
          source = `permissions:${narrowed.rule}`;
        }
      }
      effects[capability] = effect;
      sources[capability] = source;
      final = mostRestrictiveEffect(final, effect);
    }
    const matched = Object.keys(effects).filter((capability) => effects[capability] === final);
    return new PolicyDecision({
      effect: final,
      reason: `${REASON_PREFIX[final]}: ${matched.join(', ')}`,
      policyName: this.name,
      matchedCapabilities: matched,
      metadata: { capabilities: effects, sources },
    });
  }

  /** Returns the JSON form: rules, default effect and name. */
  toDict(): CapabilityPolicyDict {
    return {
      type: 'capability',
      name: this.name,
      defaultEffect: this.defaultEffect,
      rules: { ...this.compiled.canonical },
    };
  }

  /**
   * Rebuilds a policy from {@link toDict} output.
   *
   * @throws ToolInputError naming the malformed field (prefixed with `field`).
   */
  static fromDict(data: unknown, field = 'policy'): CapabilityPolicy {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw new ToolInputError(
        `${field} must be an object such as { type: 'capability', rules: { 'network.read': 'allow' }, defaultEffect: 'deny' }.`,
      );
    }
    const record = data as Record<string, unknown>;
    if (record.type !== undefined && record.type !== 'capability') {
      throw new ToolInputError(
        `${field}.type is ${JSON.stringify(record.type)}; only 'capability' policies are serialized. Pass a custom policy in overrides.policy.`,
      );
    }
    if (record.name !== undefined && (typeof record.name !== 'string' || record.name.trim() === '')) {
      throw new ToolInputError(`${field}.name must be a non-empty string.`);
    }
    const rules = compileCapabilityRules(record.rules, `${field}.rules`).canonical;
    const defaultEffect = toPolicyEffect(record.defaultEffect ?? 'allow', `${field}.defaultEffect`);
    return new CapabilityPolicy(rules, { defaultEffect, name: record.name as string | undefined });
  }
}

const REASON_PREFIX: Readonly<Record<PolicyEffect, string>> = Object.freeze({
  deny: 'Denied capabilities',
  require_approval: 'Approval required for capabilities',
  allow: 'Allowed capabilities',
});
