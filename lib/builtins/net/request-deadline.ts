/**
 * One deadline for a whole safe request (DNS, connect, headers, body and every redirect hop) joined with
 * the caller's cancellation signal: `signal` aborts when either fires first, and `timedOut` / `cancelled`
 * say which one did.
 */
export class RequestDeadline {
  /** Aborts when the deadline passes or the caller cancels. */
  readonly signal: AbortSignal;
  /** The deadline, in milliseconds from construction. */
  readonly timeoutMs: number;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly startedAt = Date.now();
  private readonly callerSignal: AbortSignal | undefined;
  private firstCause: 'timeout' | 'cancel' | null = null;
  private readonly onCallerAbort = (): void => this.abort('cancel', this.callerSignal?.reason);

  constructor(timeoutMs: number, callerSignal?: AbortSignal) {
    this.timeoutMs = timeoutMs;
    this.signal = this.controller.signal;
    this.callerSignal = callerSignal;
    this.timer = setTimeout(
      () => this.abort('timeout', new Error(`deadline of ${timeoutMs} ms passed`)),
      timeoutMs,
    );
    if (callerSignal?.aborted) this.onCallerAbort();
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  /** Whether the deadline passed before any cancellation. */
  get timedOut(): boolean {
    return this.firstCause === 'timeout';
  }

  /** Whether the caller's signal aborted before the deadline passed. */
  get cancelled(): boolean {
    return this.firstCause === 'cancel';
  }

  /** Milliseconds left before the deadline (never negative). */
  remainingMs(): number {
    return Math.max(0, this.timeoutMs - (Date.now() - this.startedAt));
  }

  /** Stops the timer and the caller-signal listener. */
  dispose(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }

  private abort(cause: 'timeout' | 'cancel', reason: unknown): void {
    if (this.firstCause !== null) return;
    this.firstCause = cause;
    this.controller.abort(reason);
  }
}
