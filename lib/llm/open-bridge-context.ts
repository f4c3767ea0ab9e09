import { ToolInputError } from '../errors/tool-input-error';
import { RunContext } from '../runtime/run-context';

/** The call a framework bridge is about to make, as given to a {@link BridgeContextFactory}. */
export interface BridgeToolCall {
  /** The tool the framework asked for. */
  readonly toolName: string;
  /** The framework's id for the call, when it has one. */
  readonly toolCallId?: string;
}

/** Returns the run context a bridged call belongs to (its parent: budgets and permissions apply). */
export type BridgeContextFactory = (call: BridgeToolCall) => RunContext;

/** The parent of a bridged call: one RunContext shared by every call, or a factory asked per call. */
export type BridgeContextSource = RunContext | BridgeContextFactory;

/**
 * Opens the run context of one bridged call: a child of the given parent (or a fresh run) that is
 * canceled when the framework's signal aborts.
 *
 * @throws ToolInputError when the source is neither a RunContext nor a factory returning one.
 */
export function openBridgeContext(
  source: BridgeContextSource | undefined,
  call: BridgeToolCall,
  signal: AbortSignal | undefined,
  bridge: string,
): RunContext {
  const parent = typeof source === 'function' ? source(call) : source;
  if (parent !== undefined && !(parent instanceof RunContext)) {
    throw new ToolInputError(
      `The context option of ${bridge} must be a RunContext or a function returning one; it gave ${parent === null ? 'null' : typeof parent} for tool '${call.toolName}'.`,
    );
  }
  const options = signal ? { signal } : {};
  return parent ? parent.child(options) : new RunContext(options);
}

/**
 * Checks the `context` option of a bridge when the tools are built, so a wrong value fails at once.
 *
 * @throws ToolInputError when the value is neither undefined, a RunContext nor a function.
 */
export function assertBridgeContextSource(source: unknown, bridge: string): void {
  if (source === undefined || source instanceof RunContext || typeof source === 'function') return;
  throw new ToolInputError(
    `The context option of ${bridge} must be a RunContext or a function (call) => RunContext; got ${source === null ? 'null' : typeof source}.`,
  );
}
