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
 * {@link ToolCancelledError} as soon as the context is canceled (even if the tool ignores its signal, and
 * whoever cancels it: the caller, an outside signal, a parent, the deadline or the tool itself), and checks
 * again after the tool returns. A result that arrived after cancellation is kept on the error
 * (`error.result`, `error.hasResult`); one that arrives after the rejection is kept on the rejected error
 * too and goes to `onLateResult`. What the tool throws or rejects with is its own error, reported as a
 * cancellation when the context was canceled by then.
 *
 * @throws ToolCancelledError when the context is canceled before, during or right after the run.
 */
export function runCancellable(
  context: RunContext,
  run: () => unknown,
  options: RunCancellableOptions,
): Promise<unknown> {
  try {
    context.throwIfCanceled(options.toolName);
  } catch (error) {
    return Promise.reject(error);
  }
  return settleToolRun(context, run, options.toolName, options.onLateResult);
}

/**
 * Runs a tool whose context the caller already checked for cancellation, as {@link runCancellable} does
 * after its check: a synchronous tool settles in one tick with no listener on the context; a promise is
 * raced against the context's cancellation, its own `cancel()` included.
 *
 * @throws ToolCancelledError when the context is canceled during or right after the run; else the tool's
 *   own error.
 */
export function awaitToolRun(context: RunContext, run: () => unknown, toolName: string): Promise<unknown> {
  return settleToolRun(context, run, toolName, undefined);
}

function settleToolRun(
  context: RunContext,
  run: () => unknown,
  toolName: string,
  onLateResult: ((result: unknown) => void) | undefined,
): Promise<unknown> {
  let started: unknown;
  try {
    started = run();
  } catch (error) {
    return Promise.reject(failedRun(context, toolName, error));
  }
  if (isPromiseLike(started)) return raceToolRun(context, started, toolName, onLateResult);
  try {
    return Promise.resolve(checkAfter(context, toolName, started));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Waits for a tool's promise, rejecting once the context is canceled by anyone (its own cancel() too). */
function raceToolRun(
  context: RunContext,
  pending: PromiseLike<unknown>,
  toolName: string,
  onLateResult: ((result: unknown) => void) | undefined,
): Promise<unknown> {
  // While the tool runs, its context must stay reachable from the signal that may cancel it.
  const release = holdRunContext(context);
  return new Promise<unknown>((resolve, reject) => {
    let settled = false;
    let rejection: ToolCancelledError | undefined;
    // Also fires (in a microtask) when the tool canceled its context before returning its promise.
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
    // Promise.resolve: a thenable's own then() runs in a job, so a throwing one rejects instead of escaping.
    Promise.resolve(pending).then(
      (result) => {
        if (settled) {
          rejection?.keepLateResult(result);
          onLateResult?.(result);
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
        reject(failedRun(context, toolName, error));
      },
    );
  });
}

/** A tool that honoured its signal fails with the signal's reason: reported as this call's cancellation. */
function failedRun(context: RunContext, toolName: string, error: unknown): unknown {
  return context.canceled ? buildCancelledError(context, toolName, false, undefined, error) : error;
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
