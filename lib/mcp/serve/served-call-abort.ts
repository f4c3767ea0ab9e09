import { describeAbortReason } from '../../runtime/describe-abort-reason';
import { RunContext } from '../../runtime/run-context';

/**
 * The cancellation of one call answered by the HTTP fast path, without an `AbortSignal` until somebody asks
 * for one (a `buildContext` hook reading `info.signal`). The default context is canceled directly instead:
 * on Node 20 an `AbortSignal` is costly to create and outlives minor garbage collections, so one signal per
 * call (plus the weak wiring of a context to it) filled the old generation and showed as the latency tail.
 */
export class ServedCallAbort {
  private controller: AbortController | undefined;
  private context: RunContext | undefined;
  private abortedWith: { readonly reason: unknown } | undefined;

  /** Whether the call was aborted (the client canceled it or went away). */
  get aborted(): boolean {
    return this.abortedWith !== undefined;
  }

  /** A signal that aborts with the call, created on first use. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortedWith) this.controller.abort(this.abortedWith.reason);
    }
    return this.controller.signal;
  }

  /** Aborts the call: its signal (if made) aborts with `reason`, its context is canceled. Once only. */
  abort(reason: unknown): void {
    if (this.abortedWith) return;
    // What AbortController.abort() gives a signal aborted without a reason (the SDK path's signals).
    if (reason === undefined) reason = new DOMException('This operation was aborted', 'AbortError');
    this.abortedWith = { reason };
    this.controller?.abort(reason);
    const context = this.context;
    this.context = undefined;
    context?.cancel(describeAbortReason(reason));
  }

  /**
   * A context for the call that this abort cancels (at once when the call was already aborted), with the
   * reason a signal would have given it.
   */
  newContext(sessionId: string | null): RunContext {
    const context = new RunContext({ sessionId });
    if (this.abortedWith) context.cancel(describeAbortReason(this.abortedWith.reason));
    else this.context = context;
    return context;
  }

  /** Forgets the context once the call is over (nothing can cancel a finished call). */
  release(): void {
    this.context = undefined;
  }
}
