import { callMcpToolAsTask } from './call-mcp-tool-as-task';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { AbortControllerPool } from './abort-controller-pool';
import { attachServerStderr, SERVER_STDERR_NOTE } from './attach-server-stderr';
import { createMcpTransport } from './create-mcp-transport';
import type { McpTransportHandle } from './create-mcp-transport';
import type { RunContext } from '../../runtime/run-context';
import type { ResolvedMcpConfig } from './resolve-mcp-config';
import { finishAuthOn, refreshIfExpired, runWithSignIn } from './auth/run-with-sign-in';
import {
  registerServerRequestHandlers,
  toClientCapabilities,
} from './server-requests/register-server-request-handlers';
import { describeError, killQuietly, withinTime } from './mcp-session-helpers';
import { toFatalTransportError } from './to-fatal-transport-error';

/** Grace given to a stdio server to exit after its stdin closes before it is terminated. */
const EXIT_GRACE_MS = 300;
/** Most time opening waits for the standalone event stream of a streamable HTTP session to be answered. */
const STREAM_WAIT_MS = 1_500;
/** Most time close() waits for an HTTP server to answer the DELETE that ends the session. */
const TERMINATE_LIMIT_MS = 3_000;

/** One page of `tools/list`. */
export interface McpToolPage {
  /** The tool entries exactly as the server sent them, unchecked (see `buildMcpListing`). */
  readonly tools: readonly unknown[];
  readonly nextCursor?: string;
}

/**
 * The page's envelope only: each tool is checked on its own later, so one malformed definition (a string
 * as input schema, a number as name) sets aside that tool instead of failing the SDK's parse of the page.
 */
const LENIENT_TOOLS_PAGE = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

/** The lists a server may say changed (`notifications/<list>/list_changed`). */
export type McpListName = 'tools' | 'resources' | 'prompts';

/** Options of {@link McpSession.callTool}. */
export interface McpSessionCallOptions {
  /** The caller's run: canceling it sends `notifications/cancelled` and rejects at once. */
  context?: RunContext;
  /** Run the call as an MCP task (`tools/call` with `task`, polled; cancelling sends `tasks/cancel`). */
  task?: boolean;
}

/** Thrown by {@link McpSession.callTool} with the SDK error and what the session knew when it failed. */
export interface McpCallFailure {
  readonly error: unknown;
  /** Set when the session failed all waiting calls itself (e.g. an oversized message). */
  readonly fatal: ToolRuntimeError | undefined;
  /** Whether the session was closed (server exit, transport closed) when the call failed. */
  readonly sessionClosed: boolean;
  /** Whether the request never left (the transport was already gone): repeating it is safe. */
  readonly notSent: boolean;
}

/**
 * One open MCP session: an SDK `Client` on one transport. Tracks liveness (a closed transport or an
 * expired HTTP session makes it dead), fails waiting calls on fatal transport errors instead of letting them
 * wait for their timeout, and closes the child process firmly.
 */
export class McpSession {
  private closedFlag = false;
  private connected = false;
  private readonly inFlight = new Set<AbortController>();
  private readonly controllers = new AbortControllerPool();
  /** Calls and listings in flight: while none is, the transport lets the process exit. */
  private activeWork = 0;
  /** Whether the transport keeps the process alive now (a new transport does until it is initialized). */
  private referenced = true;
  /** Whether an unref after the last piece of work is waiting for the end of the event loop's turn. */
  private unrefScheduled = false;

  private constructor(
    private readonly client: Client,
    private readonly handle: McpTransportHandle,
    private readonly config: ResolvedMcpConfig,
  ) {}

  /**
   * Spawns or connects, then initializes within `connectTimeoutMs`.
   *
   * @throws ToolRuntimeError naming the server when it cannot be opened (a stdio server's stderr tail is
   * attached as `serverStderr`, never put in the message).
   */
  static async open(
    config: ResolvedMcpConfig,
    onListChanged: (list: McpListName) => void,
  ): Promise<McpSession> {
    await refreshIfExpired(config.auth);
    let last: McpTransportHandle | undefined;
    // A sign-in that needed the user exchanges its code on the failed attempt's transport, then opens again.
    return runWithSignIn(
      config.auth,
      (code) => finishAuthOn(last?.transport, code),
      () => McpSession.openOnce(config, onListChanged, (handle) => (last = handle)),
    );
  }

  private static async openOnce(
    config: ResolvedMcpConfig,
    onListChanged: (list: McpListName) => void,
    onTransport: (handle: McpTransportHandle) => void,
  ): Promise<McpSession> {
    const holder: { session?: McpSession } = {};
    const handle = createMcpTransport(config, (error) => holder.session?.failAll(error));
    onTransport(handle);
    const client = new Client(
      { name: 'protolink', version: '0.1.0' },
      { capabilities: toClientCapabilities(config) },
    );
    registerServerRequestHandlers(client, config);
    const session = new McpSession(client, handle, config);
    holder.session = session;
    const opened = session;
    client.onclose = () => {
      opened.closedFlag = true;
    };
    client.onerror = (error) => {
      const fatal = toFatalTransportError(error, config, opened.connected);
      if (fatal) opened.failAll(fatal);
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => onListChanged('tools'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => onListChanged('resources'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => onListChanged('prompts'));
    try {
      await client.connect(handle.transport, { timeout: config.connectTimeoutMs });
      // The SDK opens the standalone event stream without waiting; a first call that overtook it would lose
      // the server's requests sent there (elicitation outside a request), so its answer is awaited, briefly.
      if (handle.streamReady)
        await withinTime(handle.streamReady(), Math.min(config.connectTimeoutMs, STREAM_WAIT_MS));
      session.connected = true;
      // Idle from here on: a script that forgets close() must still exit.
      if (session.activeWork === 0 && !session.closedFlag) {
        session.referenced = false;
        handle.setActive(false);
      }
    } catch (error) {
      await session.close();
      const stderr = handle.stderrTail();
      throw attachServerStderr(
        new ToolRuntimeError(
          `Could not open a session with MCP server '${config.serverName}' (${config.transport}): ${describeError(error)}${stderr ? `. ${SERVER_STDERR_NOTE}` : ''}`,
          { cause: error, provider: config.serverName, retryable: true },
        ),
        stderr,
      );
    }
    return session;
  }

  /** Whether the session can still carry calls. */
  get alive(): boolean {
    return !this.closedFlag;
  }

  /** Marks the session dead (e.g. the HTTP server forgot it) so the next call opens a new one. */
  markDead(): void {
    this.closedFlag = true;
  }

  /** The last lines the stdio server wrote to stderr (for `serverStderr`, never for messages). */
  stderrTail(): string {
    return this.handle.stderrTail();
  }

  /**
   * Reads one page of `tools/list`, checking only its envelope. `Client.listTools` is not used: its schema
   * fails the whole page for one bad tool, and it compiles every output schema with the SDK's Ajv, whose
   * patterns run natively (a hostile server's schema could then block the event loop on its own results).
   */
  async listToolsPage(cursor: string | undefined): Promise<McpToolPage> {
    const result = await this.withSignIn(() =>
      this.client
        .request(
          { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
          LENIENT_TOOLS_PAGE,
          {
            timeout: this.config.timeoutMs,
          },
        )
        .catch(this.rethrowRefusal),
    );
    return { tools: result.tools, nextCursor: result.nextCursor };
  }

  /**
   * Runs `work` (a call or a listing) with the transport keeping the process alive; between pieces of
   * work an idle session does not (its child, pipes and event streams are unref'd).
   */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    this.startWork();
    try {
      return await work();
    } finally {
      this.endWork();
    }
  }

  /** Counts a call or listing in; the first one makes the transport keep the process alive. */
  private startWork(): void {
    this.activeWork += 1;
    if (this.referenced) return;
    this.referenced = true;
    this.handle.setActive(true);
  }

  /**
   * Counts a call or listing out. When none is left, the transport stops keeping the process alive at the
   * end of this turn of the event loop, not at once: a caller that awaits one call and starts the next
   * starts it in the same turn, and unref'ing then ref'ing the child and its three pipes on every call made
   * a call over stdio about 10-30 µs slower.
   */
  private endWork(): void {
    this.activeWork -= 1;
    if (this.activeWork > 0 || this.unrefScheduled) return;
    this.unrefScheduled = true;
    setImmediate(() => {
      this.unrefScheduled = false;
      if (this.activeWork > 0 || !this.referenced || this.closedFlag) return;
      this.referenced = false;
      this.handle.setActive(false);
    });
  }

  /**
   * Calls a tool (holding the process alive until it settles, as {@link hold} does). Rejects with an
   * {@link McpCallFailure} so the adapter can tell a crash, an expired session, a timeout and a
   * cancellation apart.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: McpSessionCallOptions = {},
  ): Promise<CallToolResult> {
    // One controller (one AbortSignal, which the SDK needs) for the call, reused by a later call when it did
    // not abort: this session aborts it (deadline, crash), and the caller's run is forwarded into it through
    // the run's cancel listeners. The run's own signal is built only when the run is canceled: an
    // AbortSignal costs several µs on Node 20.
    const controller = this.controllers.take();
    const run = options.context;
    let forwarded = false;
    const forward = () => {
      if (controller.signal.aborted) return;
      forwarded = true;
      controller.abort((run as RunContext).signal.reason);
    };
    let stopForwarding: (() => void) | undefined;
    if (run?.canceled) forward();
    else if (run) stopForwarding = run.onCanceled(forward);
    const signal = controller.signal;
    this.inFlight.add(controller);
    // The SDK checks maxTotalTimeout only when progress arrives, so a deadline ends a call that outlives it
    // even if no more progress comes. Without progress the SDK's timeout (timeoutMs) ends the call first,
    // unless maxTotalTimeoutMs is the shorter: the deadline is set when the first progress arrives, or now.
    const { timeoutMs, maxTotalTimeoutMs } = this.config;
    const startedAt = Date.now();
    let deadline: NodeJS.Timeout | undefined;
    let settled = false;
    const setDeadline = (progressed: boolean) => {
      // Never after the call settled: its controller may be serving another call by then.
      if (settled || deadline) return;
      const why = progressed ? ' although it kept reporting progress' : '';
      deadline = setTimeout(
        () =>
          controller.abort(
            new ToolRuntimeError(
              `The call did not finish within ${maxTotalTimeoutMs} ms (maxTotalTimeoutMs)${why}; the server was sent notifications/cancelled.`,
              { retryable: true },
            ),
          ),
        Math.max(0, startedAt + maxTotalTimeoutMs - Date.now()),
      );
    };
    // A task runs as long as it needs: each of its requests is bounded, the whole is not.
    if (maxTotalTimeoutMs < timeoutMs && !options.task) setDeadline(false);
    // What `hold` does, inlined: one async frame less on every call.
    this.startWork();
    try {
      if (options.task) {
        return await this.withSignIn(() =>
          callMcpToolAsTask(this.client, name, args, { signal, timeoutMs, maxTotalTimeoutMs, context: run }),
        );
      }
      return (await this.withSignIn(() =>
        this.client.callTool({ name, arguments: args }, undefined, {
          signal,
          timeout: timeoutMs,
          maxTotalTimeout: maxTotalTimeoutMs,
          resetTimeoutOnProgress: true,
          onprogress: () => setDeadline(true),
        }),
      )) as CallToolResult;
    } catch (error) {
      // Aborted by this session (not by the caller): a deadline or a crash, which the adapter reports as such.
      const fatal =
        this.handle.screen.refusalOf(error) ??
        (controller.signal.aborted && !forwarded
          ? (controller.signal.reason as ToolRuntimeError)
          : undefined);
      const notSent = error instanceof Error && error.message === 'Not connected';
      if (notSent) this.closedFlag = true;
      const failure: McpCallFailure = { error, fatal, sessionClosed: this.closedFlag, notSent };
      throw failure;
    } finally {
      settled = true;
      if (deadline) clearTimeout(deadline);
      stopForwarding?.();
      this.inFlight.delete(controller);
      this.controllers.release(controller);
      this.endWork();
    }
  }

  /** What the server declared it offers when the session opened (`resources`, `prompts`, …). */
  get serverCapabilities(): ServerCapabilities {
    return this.client.getServerCapabilities() ?? {};
  }

  /**
   * Sends one request that has no effects (resources and prompts), holding the process alive until it is
   * answered; the answer is checked against `resultSchema` only (entries are checked by the caller). An
   * answer the transport's screen refused (too deep, malformed) rejects with its ToolRuntimeError.
   */
  request<Schema extends z.ZodType>(
    method: string,
    params: Record<string, unknown>,
    resultSchema: Schema,
    options: { signal?: AbortSignal } = {},
  ): Promise<z.output<Schema>> {
    return this.hold(() =>
      this.withSignIn(() =>
        this.client
          .request({ method, params }, resultSchema, {
            signal: options.signal,
            timeout: this.config.timeoutMs,
          })
          .catch(this.rethrowRefusal),
      ),
    );
  }

  /** Closes the session: HTTP sessions are ended, a stdio child gets stdin closed, then SIGTERM. */
  async close(): Promise<void> {
    this.closedFlag = true;
    // A close that is awaited lets the server shut down gracefully instead of being cut off at exit.
    this.referenced = true;
    this.handle.setActive(true);
    const transport = this.handle.transport as {
      pid?: number | null;
      terminateSession?: () => Promise<void>;
    };
    const pid = typeof transport.pid === 'number' ? transport.pid : undefined;
    // A server that never answers the DELETE must not hold close() up: client.close() below aborts it.
    if (transport.terminateSession) await withinTime(transport.terminateSession(), this.terminateLimitMs());
    const timer = pid === undefined ? undefined : setTimeout(() => killQuietly(pid), EXIT_GRACE_MS);
    try {
      await this.client.close();
    } catch {
      // closing a broken transport is best effort; the process is killed below
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  /** Runs a request that a protected server may refuse until the user signs in (again). */
  private withSignIn<T>(request: () => Promise<T>): Promise<T> {
    if (!this.config.auth) return request();
    return runWithSignIn(this.config.auth, (code) => finishAuthOn(this.handle.transport, code), request);
  }

  /** Throws the ToolRuntimeError of an answer the screen refused in place of its stand-in, else the error. */
  private readonly rethrowRefusal = (error: unknown): never => {
    throw this.handle.screen.refusalOf(error) ?? error;
  };

  private terminateLimitMs(): number {
    return Math.min(this.config.connectTimeoutMs, TERMINATE_LIMIT_MS);
  }

  private failAll(error: ToolRuntimeError): void {
    this.closedFlag = true;
    for (const controller of this.inFlight) controller.abort(error);
  }
}
