import { ToolInputError } from '../errors/tool-input-error';
import { copyData, deepFreeze } from '../runtime/deep-freeze';
import { isPolicyEffect, toPolicyEffect } from '../capabilities/policy-effect';
import type { PolicyEffect } from '../capabilities/policy-effect';

/** Options of {@link PolicyDecision}. */
export interface PolicyDecisionOptions {
  /** `allow`, `deny` or `require_approval` (aliases accepted). */
  effect: PolicyEffect | string | boolean;
  /** Why, in words a person can act on. */
  reason?: string;
  /** The policy that decided. */
  policyName?: string;
  /** The capabilities that produced the effect. */
  matchedCapabilities?: readonly string[];
  /** Details, e.g. `{ capabilities: { cap: effect }, sources: { cap: rule } }`. */
  metadata?: Record<string, unknown>;
}

/** The JSON form of a {@link PolicyDecision}. */
export interface PolicyDecisionDict {
  effect: PolicyEffect;
  reason: string;
  policyName: string;
  matchedCapabilities: string[];
  metadata: Record<string, unknown>;
}

/** What a policy decided for one action. Immutable. */
export class PolicyDecision {
  /** `allow`, `deny` or `require_approval`. */
  readonly effect: PolicyEffect;
  /** Why. */
  readonly reason: string;
  /** The policy that decided. */
  readonly policyName: string;
  /** The capabilities that produced the effect. */
  readonly matchedCapabilities: readonly string[];
  /** Details of the evaluation. */
  readonly metadata: Readonly<Record<string, unknown>>;

  /** @throws ToolInputError when the effect is not an effect. */
  constructor(options: PolicyDecisionOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new ToolInputError(
        "new PolicyDecision() needs an options object such as { effect: 'allow', reason: '…' }.",
      );
    }
    this.effect = isPolicyEffect(options.effect)
      ? options.effect
      : toPolicyEffect(options.effect, 'PolicyDecision effect');
    this.reason = typeof options.reason === 'string' ? options.reason : '';
    this.policyName = typeof options.policyName === 'string' ? options.policyName : 'policy';
    this.matchedCapabilities = Object.freeze([...(options.matchedCapabilities ?? [])].map(String));
    this.metadata = options.metadata ? deepFreeze(copyData(options.metadata)) : EMPTY_METADATA;
    Object.freeze(this);
  }

  /** Whether the action may run without approval. */
  get allowed(): boolean {
    return this.effect === 'allow';
  }

  /** Returns the JSON form. */
  toDict(): PolicyDecisionDict {
    return {
      effect: this.effect,
      reason: this.reason,
      policyName: this.policyName,
      matchedCapabilities: [...this.matchedCapabilities],
      metadata: copyData(this.metadata) as Record<string, unknown>,
    };
  }

  /**
   * Rebuilds a decision from {@link toDict} output; a missing effect reads as `deny` (fail closed).
   *
   * @throws ToolInputError for data that is not an object or an unknown effect.
   */
  static fromDict(data: unknown): PolicyDecision {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw new ToolInputError(
        'PolicyDecision.fromDict() needs an object such as { effect, reason, policyName }.',
      );
    }
    const record = data as Partial<PolicyDecisionDict>;
    return new PolicyDecision({
      effect: record.effect ?? 'deny',
      reason: record.reason,
      policyName: record.policyName,
      matchedCapabilities: Array.isArray(record.matchedCapabilities) ? record.matchedCapabilities : [],
      metadata: typeof record.metadata === 'object' && record.metadata !== null ? record.metadata : {},
    });
  }
}

const EMPTY_METADATA: Readonly<Record<string, unknown>> = Object.freeze({});
