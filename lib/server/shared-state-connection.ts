import { SessionStoreUnavailableError } from '../errors/session-store-unavailable-error';
import type { SharedSessionState } from '../mcp/serve/shared-session-state';

/** Shared session state that holds connections (the Redis backend). */
export interface ClosableSharedState extends SharedSessionState {
  /** Closes the connections it opened. */
  close(): Promise<void>;
}

/**
 * The connection of one server to its shared session state: opened on first need (or when `ready()` is
 * awaited at start), shared by every request, and closed with the server. An attempt that failed is
 * forgotten, so the next need tries again (Redis may be back).
 */
export class SharedStateConnection {
  private pending: Promise<ClosableSharedState> | undefined;
  private closed = false;

  constructor(private readonly connect: () => Promise<ClosableSharedState>) {}

  /**
   * The connected state.
   *
   * @throws SessionStoreUnavailableError when it cannot be reached, or the server is closed.
   */
  get(): Promise<ClosableSharedState> {
    if (this.closed) {
      return Promise.reject(
        new SessionStoreUnavailableError({ reason: 'the server is closed', retryable: false }),
      );
    }
    if (!this.pending) {
      const attempt = Promise.resolve().then(this.connect);
      this.pending = attempt;
      attempt.catch(() => {
        if (this.pending === attempt) this.pending = undefined;
      });
    }
    return this.pending;
  }

  /** Closes the connection (after an attempt still under way settles); later `get` calls reject. */
  async close(): Promise<void> {
    this.closed = true;
    const pending = this.pending;
    this.pending = undefined;
    const state = await pending?.catch(() => undefined);
    await state?.close();
  }
}
