import { ToolCancelledError } from '../errors/tool-cancelled-error';
import { holdRunContext } from './hold-run-context';
import type { RunContext } from './run-context';

/** Options of {@link runCancellable}. */
export interface RunCancellableOptions {
  /** The tool being run, named in the error. */
  toolName: string;
  /** Called with the result when the tool finishes after the call was already rejected as canceled. */
  onLateResult?: (result: unknown) => void;
}

/**
 * Runs a tool under a context's cancellation: checks before starting, rejects with
 * {@link ToolCancelledError} as soon as the context is canceled (even if the tool ignores its signal),
 * and checks again after the tool returns. A result that arrived after cancellation is kept on the
 * error (`error.result`, `error.hasResult`); one that arrives after the rejection goes to `onLateResult`.
 *
 * @throws ToolCancelledError when the context is canceled before, during or right after the run.
 */
export function runCancellable(
  context: RunContext,
  run: () => unknown,
  options: RunCancellableOptions,
): Promise<unknown> {
  const { toolName } = options;
  let started: unknown;
  try {
    context.throwIfCanceled(toolName);
    started = run();
    if (!isPromiseLike(started)) return Promise.resolve(checkAfter(context, toolName, started));
  } catch (error) {
    return Promise.reject(error);
  }
  const pending = started;
  // While the tool runs, its context must stay reachable from the signal that may cancel it.
  const release = holdRunContext(context);
  return new Promise<unknown>((resolve, reject) => {
    let settled = false;
    let rejection: ToolCancelledError | undefined;
    const stopListening = context.onCanceled(() => {
      release();
      // One macrotask of grace: a tool that already finished (a sync function behind an async wrapper)
      // settles first, so its result is kept on the error instead of being reported late.
      setImmediate(() => {
        if (settled) return;
        settled = true;
        rejection = buildCancelledError(context, toolName, false, undefined);
        reject(rejection);
      });
    });
    pending.then(
      (result) => {
        if (settled) {
          rejection?.keepLateResult(result);
          options.onLateResult?.(result);
          return;
        }
        settled = true;
        stopListening();
        release();
        try {
          resolve(checkAfter(context, toolName, result));
        } catch (error) {
          reject(error);
        }
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        stopListening();
        release();
        // A tool that honoured its signal rejects with the signal's reason: report it as this call's cancellation.
        reject(context.canceled ? buildCancelledError(context, toolName, false, undefined, error) : error);
      },
    );
  });
}

/**
 * Runs a tool that nothing can cancel from outside while it runs (its context has no signal, deadline or
 * parent, and only the call holds it): no race, no listener, no async wrapper (a synchronous tool settles in
 * one tick), the same checks as {@link runCancellable} after. What `run` throws or rejects with is the
 * tool's own error, reported as a cancellation when the tool canceled its context first.
 *
 * @throws ToolCancelledError when the tool canceled the context itself; else the tool's own error.
 */
export function awaitToolRun(context: RunContext, run: () => unknown, toolName: string): Promise<unknown> {
  const failed = (error: unknown) =>
    context.canceled ? buildCancelledError(context, toolName, false, undefined, error) : error;
  let started: unknown;
  try {
    started = run();
  } catch (error) {
    return Promise.reject(failed(error));
  }
  if (!isPromiseLike(started)) {
    try {
      return Promise.resolve(checkAfter(context, toolName, started));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return Promise.resolve(started).then(
    (result) => checkAfter(context, toolName, result),
    (error: unknown) => {
      throw failed(error);
    },
  );
}

function checkAfter(context: RunContext, toolName: string, result: unknown): unknown {
  if (context.canceled) throw buildCancelledError(context, toolName, true, result);
  return result;
}

function buildCancelledError(
  context: RunContext,
  toolName: string,
  hasResult: boolean,
  result: unknown,
  cause?: unknown,
): ToolCancelledError {
  const reason = context.cancelReason;
  const what = hasResult
    ? `tool '${toolName}' finished after cancellation; its result is kept in error.result because its side effects may have happened`
    : `tool '${toolName}' was stopped before it finished`;
  return new ToolCancelledError(
    `Run ${context.runId} was canceled${reason ? ` (${reason})` : ''}; ${what}.`,
    {
      reason,
      toolName,
      hasResult,
      result,
      cause,
    },
  );
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function'
  );
}
