import { ToolCancelledError } from '../errors/tool-cancelled-error';
import { holdRunContext } from './hold-run-context';
import type { RunContext } from './run-context';

/**
 * Waits for a promise, but rejects with a {@link ToolCancelledError} as soon as the run is canceled (or
 * its deadline passes) first. `what` names what was pending, e.g. `the approval for tool 'publish'`.
 *
 * @throws ToolCancelledError when the run is canceled before the promise settles.
 */
export function raceCancellation<T>(
  context: RunContext,
  promise: PromiseLike<T>,
  what: string,
  toolName?: string,
): Promise<T> {
  // While the promise is pending, the context must stay reachable from the signal that may cancel it.
  const release = holdRunContext(context);
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const stop = context.onCanceled(() => {
      release();
      if (settled) return;
      settled = true;
      const reason = context.cancelReason;
      reject(
        new ToolCancelledError(
          `${what} was still pending when run ${context.runId} was canceled${reason ? ` (${reason})` : ''}; the tool did not run.`,
          { reason, toolName },
        ),
      );
    });
    promise.then(
      (value) => {
        if (settled) return;
        settled = true;
        stop();
        release();
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        stop();
        release();
        reject(error);
      },
    );
  });
}
