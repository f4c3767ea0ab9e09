import type { IncomingMessage, ServerResponse } from 'node:http';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { isSessionEraVersion } from '../wire/protocol-eras';
import { NativeTool } from '../../tools/native-tool';
import type { McpCallExtra, McpToolCallChannelOptions } from './mcp-tool-call-channel';
import { ServedCallAbort } from '../serve/served-call-abort';
import type { ServedSessionState } from '../serve/served-tool-calls';
import type { SessionToolCalls } from './session-tool-calls';

/** A POST the fast path answers: one `tools/list`, or one `tools/call` of a tool that never streams. */
export type FastRequest =
  | { readonly kind: 'list'; readonly id: RequestId }
  | {
      readonly kind: 'call';
      readonly id: RequestId;
      readonly toolName: string;
      readonly args: Record<string, unknown> | undefined;
    };

/** Where a fast request runs: its session (or the stateless request's own state) and how to answer it. */
export interface FastRequestScope {
  /** The gate and log level of the session (a fresh state per stateless request). */
  readonly state: ServedSessionState;
  /** The session id (stateful) or null. */
  readonly sessionId: string | null;
  /** Where the client's declared capabilities are read: the session's SDK server, else nothing. */
  readonly server: McpToolCallChannelOptions['server'];
  /** Stateful sessions: the fast calls in flight by JSON-RPC id, so `notifications/cancelled` reaches them. */
  readonly inFlight?: Map<RequestId, FastCallCancel>;
}

/** Cancels one fast call, as the client's `notifications/cancelled` does. */
export type FastCallCancel = (reason: unknown) => void;

/**
 * The lean path of `/mcp` for the hot methods: a POST carrying one `tools/list`, or one `tools/call` of a
 * tool that cannot stream (a `NativeTool` that does not read its context and has no action builder), with
 * the headers the SDK's transport accepts, is answered here: same checks, the same handling as the SDK's
 * request handlers ({@link ServedToolCalls}), the response serialized here (JSON, or a single SSE `message`
 * event for a client that refuses JSON), without an SDK server or transport. Anything else returns
 * undefined from {@link match} and goes through the SDK: `initialize`, notifications, batches, progress
 * tokens, tasks, unusual headers (the SDK answers their errors), tools that use their context, and calls in
 * a session whose client can answer questions (approval could be routed through elicitation).
 */
export class FastToolCalls {
  constructor(private readonly calls: SessionToolCalls) {}

  /** Returns the fast request the POST carries, or undefined when it must go through the SDK. */
  match(request: IncomingMessage, body: unknown): FastRequest | undefined {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
    const message = body as { id?: unknown; method?: unknown; params?: unknown };
    const id = message.id;
    if (typeof id !== 'string' && typeof id !== 'number') return undefined;
    if (message.method !== 'tools/call' && message.method !== 'tools/list') return undefined;
    if (!acceptsHeaders(request)) return undefined;
    const params = message.params;
    if (message.method === 'tools/list') {
      if (params === undefined) return { kind: 'list', id };
      if (!isPlainObject(params)) return undefined;
      for (const key in params) {
        if (key !== 'cursor' || typeof params.cursor !== 'string') return undefined;
      }
      return { kind: 'list', id };
    }
    if (!isPlainObject(params)) return undefined;
    const { name, arguments: args } = params;
    if (typeof name !== 'string' || (args !== undefined && !isPlainObject(args))) return undefined;
    for (const key in params) if (key !== 'name' && key !== 'arguments') return undefined;
    const tool = this.calls.agent.tools.get(name);
    // An unknown tool is answered here too (the same -32602); a tool that may stream goes to the SDK.
    if (
      tool !== undefined &&
      !(
        tool instanceof NativeTool &&
        !tool.readsContext &&
        !tool.hasActionBuilder &&
        tool.taskSupport === 'forbidden'
      )
    )
      return undefined;
    return { kind: 'call', id, toolName: name, args };
  }

  /**
   * Whether a matched call can run here in this scope: not when the session's client declared elicitation
   * (an approval may ask it through `elicitation/create`, which needs the SDK's stream), nor when a call
   * with the same id is already in flight.
   */
  canRun(fast: FastRequest, scope: FastRequestScope): boolean {
    if (fast.kind === 'list') return true;
    if (scope.inFlight?.has(fast.id)) return false;
    return !this.calls
      .channelFor(scope.state, { toolName: fast.toolName, server: scope.server, extra: NO_STREAM_EXTRA })
      .canElicit();
  }

  /** Answers a matched request (never rejects: a failure becomes a JSON-RPC error response). */
  async answer(
    fast: FastRequest,
    scope: FastRequestScope,
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> {
    const sse = refusesJson(request.headers.accept);
    if (fast.kind === 'list') {
      let listed: Record<string, unknown>;
      try {
        listed = { result: this.calls.listTools(), jsonrpc: '2.0', id: fast.id };
      } catch (error) {
        listed = errorMessage(fast.id, error);
      }
      send(response, sse, scope.sessionId, listed);
      return;
    }
    const abort = new ServedCallAbort();
    let canceled = false;
    const onClose = () => {
      if (!response.writableFinished)
        abort.abort(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
    };
    response.once('close', onClose);
    scope.inFlight?.set(fast.id, (reason) => {
      canceled = true;
      abort.abort(reason);
      // The SDK sends no response for a canceled request; release the POST as the SDK path does.
      if (!response.headersSent) response.writeHead(204);
      response.end();
    });
    let message: Record<string, unknown>;
    try {
      const result = await this.calls.call(scope.state, {
        toolName: fast.toolName,
        args: fast.args,
        sessionId: scope.sessionId,
        signal: abort,
        server: scope.server,
        extra: NO_STREAM_EXTRA,
      });
      // The SDK checks every tools/call result against its schema and sends the parsed value; for the common
      // shape (text blocks, an optional object) that value is the result itself.
      const checked = isPlainTextResult(result)
        ? { success: true as const, data: result }
        : CallToolResultSchema.safeParse(result);
      message = checked.success
        ? { result: checked.data, jsonrpc: '2.0', id: fast.id }
        : errorMessage(
            fast.id,
            new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${checked.error.message}`),
          );
    } catch (error) {
      message = errorMessage(fast.id, error);
    } finally {
      scope.inFlight?.delete(fast.id);
      response.removeListener('close', onClose);
    }
    if (canceled || abort.aborted || response.writableEnded) return;
    send(response, sse, scope.sessionId, message);
  }
}

/**
 * What a fast call's channel gets instead of the SDK's `extra`: no progress token, no stream, no requests.
 * Its signal never aborts: the channel reads it only around requests to the client, which a fast call never
 * sends; the call itself is canceled through its {@link ServedCallAbort}.
 */
const NO_STREAM_EXTRA: McpCallExtra = Object.freeze({
  signal: new AbortController().signal,
  _meta: undefined,
  closeSSEStream: undefined,
  // Unreachable: only tools that never read their context run here, and never in a session able to elicit.
  sendNotification: async () => undefined,
  sendRequest: () =>
    Promise.reject(new ToolRuntimeError('A fast-path tool call cannot send requests to the MCP client.')),
}) as McpCallExtra;

/** The JSON-RPC error response the SDK's protocol layer sends for a failed request. */
function errorMessage(id: RequestId, error: unknown): Record<string, unknown> {
  const failure = error as { code?: unknown; message?: unknown; data?: unknown };
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: Number.isSafeInteger(failure.code) ? failure.code : ErrorCode.InternalError,
      message: typeof failure.message === 'string' ? failure.message : 'Internal error',
      ...(failure.data === undefined ? {} : { data: failure.data }),
    },
  };
}

function send(
  response: ServerResponse,
  sse: boolean,
  sessionId: string | null,
  message: Record<string, unknown>,
): void {
  const json = JSON.stringify(message);
  const headers: Record<string, string | number> = sse
    ? { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' }
    : { 'content-type': 'application/json' };
  if (sessionId !== null) headers['mcp-session-id'] = sessionId;
  const body = sse ? `event: message\ndata: ${json}\n\n` : json;
  headers['content-length'] = Buffer.byteLength(body);
  response.writeHead(200, headers);
  response.end(body);
}

/**
 * The headers the SDK's transport accepts, in their plain forms (anything else goes to the SDK, which
 * answers the error or accepts the variant): an `Accept` naming both `application/json` and
 * `text/event-stream`, `Content-Type: application/json` (optionally `; charset=utf-8`), and a supported
 * `MCP-Protocol-Version` when one is sent.
 */
function acceptsHeaders(request: IncomingMessage): boolean {
  const { accept, 'content-type': contentType } = request.headers;
  if (
    typeof accept !== 'string' ||
    !accept.includes('application/json') ||
    !accept.includes('text/event-stream')
  )
    return false;
  if (typeof contentType !== 'string' || !PLAIN_JSON_CONTENT_TYPE.test(contentType)) return false;
  const version = request.headers['mcp-protocol-version'];
  return version === undefined || isSessionEraVersion(version);
}

const PLAIN_JSON_CONTENT_TYPE = /^application\/json\s*(;\s*charset="?utf-8"?\s*)?$/i;

/** Whether the client's `Accept` gives `application/json` a quality of 0 (it then gets SSE). */
function refusesJson(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  for (const range of accept.split(',')) {
    const [type, ...parameters] = range.split(';');
    if (type.trim().toLowerCase() !== 'application/json') continue;
    for (const parameter of parameters) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(parameter);
      if (match && Number(match[1]) === 0) return true;
    }
  }
  return false;
}

/**
 * Whether a result is `{ content: [{ type: 'text', text }…], structuredContent?: {…} }` and nothing else: the
 * SDK's CallToolResultSchema parses it into an equal value, so it needs no parse.
 */
function isPlainTextResult(result: CallToolResult): boolean {
  for (const key in result) if (key !== 'content' && key !== 'structuredContent') return false;
  const structured = result.structuredContent;
  if (structured !== undefined && !isPlainObject(structured)) return false;
  if (!Array.isArray(result.content)) return false;
  for (const block of result.content as unknown[]) {
    if (!isPlainObject(block) || block.type !== 'text' || typeof block.text !== 'string') return false;
    for (const key in block) if (key !== 'type' && key !== 'text') return false;
  }
  return true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
