import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolNotFoundError } from '../../errors/tool-not-found-error';
import { RunContext } from '../../runtime/run-context';
import { attachToolCallChannel } from '../../runtime/tool-call-scope';
import { CallGate } from './call-gate';
import { isCallerFacingError } from '../wire/is-caller-facing-error';
import { ServedCallAbort } from './served-call-abort';
import type { ToolCallChannel, ToolLogLevel } from '../../runtime/tool-call-channel';
import type { ServableAgent } from '../../agents/servable-agent';
import type { ServedCallInfo } from '../wire/served-call-info';
import { toCallToolErrorResult, toCallToolResult } from '../wire/to-call-tool-result';
import { toMcpTool } from '../wire/to-mcp-tool';
import type { TaskStore } from '../../tasks/task-store';

/** Default cap on calls running at once in one MCP session. */
export const DEFAULT_MAX_CONCURRENT_CALLS = 16;

/** JSON-RPC error code of a call refused because the session already runs its maximum of calls. */
export const TOO_MANY_CALLS_ERROR_CODE = -32029;

/** A gate shared by many sessions or requests (every stateless request of one endpoint). */
export interface SharedCallGate {
  readonly limit: number;
  tryEnter(): boolean;
  leave(): void;
}

/** The log level a client chose (2025-11-25: with `logging/setLevel`; undefined: every message is sent). */
export interface LogLevelHolder {
  level: ToolLogLevel | undefined;
}

/** What the calls of one MCP session share, whichever path (SDK or fast) they arrive on. */
export interface ServedSessionState {
  /** Caps the calls running at once in the session. */
  readonly gate: CallGate;
  /** The level the client chose with `logging/setLevel`. */
  readonly logLevel: LogLevelHolder;
  /**
   * How many of the gate's running calls are task runs: those are not use of the session (their client
   * polls), so they do not keep a session of one process from expiring.
   */
  runningTasks: number;
}

/** What {@link ServedToolCalls} needs from the server options. */
export interface ServedToolCallsOptions {
  readonly maxConcurrentCalls?: number;
  readonly sharedCallGate?: SharedCallGate;
  readonly buildContext?: (info: ServedCallInfo) => RunContext;
  readonly onError?: (error: unknown, toolName: string) => void;
  readonly transport?: 'http' | 'stdio';
  readonly serverRequests?: boolean;
  /** Where served tasks live (default: the agent's `taskStore`, else a new `InMemoryTaskStore`). */
  readonly taskStore?: TaskStore;
  /** The longest TTL a task gets, in ms (default one hour). */
  readonly maxTaskTtlMs?: number;
  /** The poll interval suggested to task clients and used to read the store, in ms (default 1,000). */
  readonly taskPollIntervalMs?: number;
  /** The token subject of an authenticated server (tasks then belong to it). */
  readonly tokenSubject?: string;
}

/**
 * One `tools/call` as a revision's endpoint hands it over: what the core needs; a revision adds what its
 * channel needs to reach the caller (the 2025-11-25 room: the session's SDK server and the request's extra).
 */
export interface ServedToolCall {
  readonly toolName: string;
  readonly args: Record<string, unknown> | undefined;
  readonly sessionId: string | null;
  /**
   * Aborts when the client cancels or goes away: the SDK's signal, or the fast path's {@link ServedCallAbort}
   * (which makes a signal only for a `buildContext` hook and otherwise cancels the context directly).
   */
  readonly signal: AbortSignal | ServedCallAbort;
}

/** What a call's channel is made from: the call without its arguments, session and signal. */
export type ToolCallChannelRequest<Call extends ServedToolCall> = Omit<Call, 'args' | 'sessionId' | 'signal'>;

/** Makes the channel a call's tool reports to (progress, log, questions), in the revision serving it. */
export type ToolCallChannelFactory<Call extends ServedToolCall> = (
  calls: ServedToolCalls<Call>,
  state: ServedSessionState,
  request: ToolCallChannelRequest<Call>,
) => ToolCallChannel;

/** Work a revision ties to the calls' lifetime (the 2025-11-25 room's tasks): told when a session ends and when the server closes. */
export interface ServedCallsExtension {
  /** The session ended (deleted, or expired). */
  endSession?(sessionId: string): Promise<void>;
  /** The server closes. */
  close?(): Promise<void>;
}

/**
 * The handling of `tools/list` and `tools/call` that the SDK's request handlers and the HTTP fast path both
 * run: an unknown tool is the JSON-RPC error -32602 with `availableTools`; a call over the session's (or a
 * shared) gate is -32029; every call runs through `agent.callToolInContext` with the context `buildContext`
 * makes and the call's channel attached; results map through `toCallToolResult`, failures to safe `isError`
 * results (internal details go to `onError` only).
 */
export class ServedToolCalls<Call extends ServedToolCall = ServedToolCall> {
  private readonly maxConcurrentCalls: number;
  readonly transport: 'http' | 'stdio';
  private readonly extensions = new Set<ServedCallsExtension>();

  constructor(
    readonly agent: ServableAgent,
    readonly options: ServedToolCallsOptions,
    /** Longest wait for a caller's answer to a tool's question, in ms. */
    readonly requestTimeoutMs: number,
    private readonly channels: ToolCallChannelFactory<Call>,
  ) {
    this.maxConcurrentCalls = Math.max(
      1,
      Math.floor(options.maxConcurrentCalls ?? DEFAULT_MAX_CONCURRENT_CALLS),
    );
    this.transport = options.transport ?? 'http';
  }

  /** Ties a revision's work to these calls: it hears of ended sessions and of the close. */
  extend(extension: ServedCallsExtension): void {
    this.extensions.add(extension);
  }

  /** Tells the extensions that the server closes (a revision's tasks stop); nothing else is held. */
  async close(): Promise<void> {
    for (const extension of this.extensions) await extension.close?.();
  }

  /** A fresh state for one session (or one stateless request). */
  newSessionState(): ServedSessionState {
    return {
      gate: new CallGate(this.maxConcurrentCalls),
      logLevel: { level: undefined },
      runningTasks: 0,
    };
  }

  /** The session ended (deleted, or expired): tells the extensions (a revision cancels what the session owned). */
  async endSession(sessionId: string): Promise<void> {
    for (const extension of this.extensions) await extension.endSession?.(sessionId);
  }

  /** The `tools/list` result: every tool of the agent, read live. */
  listTools(): ListToolsResult {
    return { tools: [...this.agent.tools.values()].map(toMcpTool) };
  }

  /** The channel a call's tool reports to, made by the revision serving it. */
  channelFor(state: ServedSessionState, request: ToolCallChannelRequest<Call>): ToolCallChannel {
    return this.channels(this, state, request);
  }

  /**
   * Runs one `tools/call`.
   *
   * @throws McpError -32602 for an unknown tool, -32029 when the session's or the shared gate is full.
   */
  async call(
    state: ServedSessionState,
    call: Call,
    channel: ToolCallChannel = this.channelFor(state, call),
  ): Promise<CallToolResult> {
    const { agent, options } = this;
    const { toolName } = call;
    if (!agent.tools.has(toolName)) throw unknownToolError(toolName, agent);
    const leave = this.enterGates(state);
    try {
      const context = this.newContext(call);
      attachToolCallChannel(context, channel);
      const result = await agent.callToolInContext(toolName, context, call.args ?? {});
      return toCallToolResult(result, toolName);
    } catch (error) {
      if (error instanceof ToolNotFoundError) throw unknownToolError(toolName, agent);
      // Details of internal failures (a tool's own error, a failing policy or approver) stay on the server.
      if (!isCallerFacingError(error)) options.onError?.(error, toolName);
      return toCallToolErrorResult(error, toolName);
    } finally {
      if (call.signal instanceof ServedCallAbort) call.signal.release();
      leave();
    }
  }

  /**
   * Takes a slot of the session's gate and of the shared one (every stateless request of an endpoint), as
   * every call and every task's run must; returns the function that gives both back (call it once).
   *
   * @throws McpError -32029 when either gate is full (nothing is taken then).
   */
  enterGates(state: ServedSessionState): () => void {
    const gate = state.gate;
    if (!gate.tryEnter()) {
      throw new McpError(
        TOO_MANY_CALLS_ERROR_CODE,
        `Too many concurrent tool calls in this session (limit ${gate.limit}); wait for one to finish and retry.`,
      );
    }
    const shared = this.options.sharedCallGate;
    if (shared && !shared.tryEnter()) {
      gate.leave();
      throw new McpError(
        TOO_MANY_CALLS_ERROR_CODE,
        `Too many concurrent tool calls on this server (limit ${shared.limit}); wait for one to finish and retry.`,
      );
    }
    return () => {
      gate.leave();
      shared?.leave();
    };
  }

  /** Tells `onError` about an internal failure of a tool (its details never reach the client). */
  reportError(error: unknown, toolName: string): void {
    this.options.onError?.(error, toolName);
  }

  /** The call's context: the `buildContext` hook's, else a fresh one canceled with the call. */
  newContext(call: ServedToolCall): RunContext {
    const abort = call.signal;
    const sessionId = call.sessionId;
    const buildContext = this.options.buildContext;
    if (buildContext) {
      const signal = abort instanceof ServedCallAbort ? abort.signal : abort;
      const info: ServedCallInfo = { toolName: call.toolName, sessionId, signal, transport: this.transport };
      return buildContext(info);
    }
    return abort instanceof ServedCallAbort
      ? abort.newContext(sessionId)
      : new RunContext({ signal: abort, sessionId });
  }
}

/** The JSON-RPC error -32602 of an unknown tool, naming the tools that exist. */
export function unknownToolError(toolName: string, agent: ServableAgent): McpError {
  const available = [...agent.tools.keys()].sort();
  return new McpError(ErrorCode.InvalidParams, `Unknown tool: ${toolName}`, { availableTools: available });
}
