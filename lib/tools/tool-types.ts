import type { RunAction } from '../runtime/run-action';
import type { RunContext } from '../runtime/run-context';

/** Builds the RunAction that the policy evaluates for a call (sync or async). */
export type ActionBuilder = (
  args: Record<string, unknown>,
  context: RunContext,
) => RunAction | Promise<RunAction>;

/** The function a NativeTool runs: validated arguments and the run's context (with its AbortSignal). */
export type ToolFunction = (args: Record<string, any>, context: RunContext) => unknown;
