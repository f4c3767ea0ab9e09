import type { PolicyEffect } from '../capabilities/policy-effect';
import type { RunBudget, RunUsage } from './run-budget';

/** A permission rule value: an effect name or alias, or a boolean. */
export type PermissionValue = string | boolean;

/** Options of {@link RunContext}. */
export interface RunContextOptions {
  /** Identifies the run (a new UUID when absent). */
  runId?: string;
  /** Groups runs of one conversation. */
  sessionId?: string | null;
  /**
   * Rules of the same form as CapabilityPolicy's (exact, `prefix.*`, `*`, plus an optional `default`);
   * they can only narrow what the policy allows, never widen it.
   */
  permissions?: Record<string, PermissionValue> | null;
  /** Limits of the run. */
  budget?: RunBudget | null;
  /** An outside signal: aborting it cancels the run. */
  signal?: AbortSignal;
  /** Free-form data for tools and policies. */
  metadata?: Record<string, unknown>;
}

/** The JSON form of a {@link RunContext}. */
export interface RunContextDict {
  runId: string;
  sessionId: string | null;
  permissions: Record<string, PolicyEffect> | null;
  budget: RunBudget;
  metadata: Record<string, unknown>;
  usage: RunUsage;
  canceled: boolean;
  cancelReason: string | null;
}
