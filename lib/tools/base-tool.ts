import type { RunContext } from '../runtime/run-context';
import type { JsonSchema } from './json-schema';

/** Options of one tool call. */
export interface ToolCallOptions {
  /** Aborts the call; the tool receives it and should stop its work. */
  signal?: AbortSignal;
  /** The run this call belongs to (budgets, permissions, cancellation, metadata). */
  context?: RunContext;
}

/**
 * The contract every tool meets: native, built-in and MCP tools alike. Structural: any object of this
 * shape can be registered. Calling `call()` directly bypasses an Agent's policy, approval, budget and
 * telemetry.
 */
export interface BaseTool {
  /** Unique name, 1–64 characters of `[A-Za-z0-9_-]`. */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** JSON Schema of the argument object, or null when unknown. */
  readonly inputSchema: JsonSchema | null;
  /** JSON Schema of the result, or null when unknown. */
  readonly outputSchema: JsonSchema | null;
  /** Free-form labels. */
  readonly tags: string[] | null;
  /** Example argument objects. */
  readonly examples: unknown[] | null;
  /** Capabilities the tool needs (`network.read`, `records.write`), checked by the policy. */
  readonly capabilities: readonly string[] | null;
  /** Runs the tool with one argument object. */
  call(args?: Record<string, unknown>, options?: ToolCallOptions): Promise<unknown>;
}
