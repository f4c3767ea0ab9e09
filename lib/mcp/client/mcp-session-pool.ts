import { ToolCancelledError } from '../../errors/tool-cancelled-error';
import { raceSignal } from '../../runtime/race-signal';
import { McpSession } from './mcp-session';
import type { McpListName } from './mcp-session';
import type { ResolvedMcpConfig } from './resolve-mcp-config';
import { RetryOnce } from './retry-once';

/**
 * The sessions of an `MCPToolAdapter`: one opened on first use and reused (opened once even under concurrent
 * first uses), opened again once it died; with `session: 'per-call'`, one per piece of work, closed after it.
 * Work that throws {@link RetryOnce} runs once more, on a live session.
 */
export class McpSessionPool {
  private session: McpSession | undefined;
  private opening: Promise<McpSession> | undefined;

  /**
   * @param config the adapter's configuration, read when a session opens (it is resolved at first use).
   * @param onListChanged what the server's `notifications/…/list_changed` do.
   */
  constructor(
    private readonly config: () => ResolvedMcpConfig,
    private readonly onListChanged: (list: McpListName) => void,
  ) {}

  /**
   * Runs `work` on a session; a run whose signal aborts while the session opens is cancelled.
   *
   * @throws ToolCancelledError when the run is cancelled while the session opens; what `work` throws (the
   *   final error of a {@link RetryOnce} that failed again).
   */
  async run<T>(
    work: (session: McpSession) => Promise<T>,
    // A RunContext, whose signal is only built when read, or a catalog request's { signal }.
    run?: { readonly signal: AbortSignal | undefined },
    retried = false,
  ): Promise<T> {
    const perCall = this.config().session === 'per-call';
    let session: McpSession;
    if (perCall) session = await this.openPerCall(run?.signal);
    else if (this.session?.alive) session = this.session;
    else session = await raceSignal(this.ensureSession(), run?.signal, toOpeningCancelled);
    try {
      return await work(session);
    } catch (error) {
      if (error instanceof RetryOnce) {
        if (!retried) return this.run(work, run, true);
        throw error.finalError;
      }
      throw error;
    } finally {
      if (perCall) await session.close();
    }
  }

  /** Ends the shared session (a stdio server is stopped); a later run opens a new one. */
  async close(): Promise<void> {
    const session = this.session ?? (await this.opening?.catch(() => undefined));
    this.session = undefined;
    this.opening = undefined;
    await session?.close();
  }

  /** Opens the session of one call; one that opens after the caller gave up is closed at once. */
  private async openPerCall(signal: AbortSignal | undefined): Promise<McpSession> {
    const opening = McpSession.open(this.config(), this.onListChanged);
    try {
      return await raceSignal(opening, signal, toOpeningCancelled);
    } catch (error) {
      void opening.then(
        (late) => late.close(),
        () => undefined,
      );
      throw error;
    }
  }

  private async ensureSession(): Promise<McpSession> {
    if (this.session?.alive) return this.session;
    if (this.opening) return this.opening;
    const stale = this.session;
    this.session = undefined;
    if (stale) void stale.close();
    const opening = McpSession.open(this.config(), this.onListChanged);
    this.opening = opening;
    try {
      this.session = await opening;
      return this.session;
    } finally {
      if (this.opening === opening) this.opening = undefined;
    }
  }
}

/** The error of a run cancelled while its session was opening. */
export function toOpeningCancelled(reason: unknown): ToolCancelledError {
  return reason instanceof ToolCancelledError
    ? reason
    : new ToolCancelledError('The MCP call was cancelled while the session was opening.', {
        reason: String(reason),
      });
}
