import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage, LoggingLevel, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { McpRevisionEndpoint } from '../serve/mcp-revision-endpoint';
import type { ServableAgent } from '../../agents/servable-agent';
import { DEFAULT_MAX_CONCURRENT_CALLS } from '../serve/served-tool-calls';
import type { SharedSessionState } from '../serve/shared-session-state';
import { sendJsonRpcError } from '../wire/send-json-rpc-error';
import type { ResumableEventStore } from '../../state/resumable-event-store';
import type { SessionKey } from '../../state/session-key';
import type { SessionRecord } from '../../state/session-store';
import { admitGetStream, isPlainSseRequest } from './admit-get-stream';
import { alignProtocolVersion, negotiateProtocolVersion } from './align-protocol-version';
import { createSessionMcpServer, resolveInteractionTimeoutMs } from './create-mcp-server';
import type { McpServerOptions } from './create-mcp-server';
import { endMcpSession } from './end-mcp-session';
import { FastToolCalls } from './fast-tool-calls';
import type { FastRequestScope } from './fast-tool-calls';
import { isAnsweredTransportError } from './is-answered-transport-error';
import { McpSessionStore } from './mcp-session-store';
import type { McpSession } from './mcp-session-store';
import { primeSessionReplica } from './prime-session-replica';
import { releaseCanceledCall } from './release-canceled-call';
import { cancelFastCalls, containsInitialize, requestIdsOf, soloRequestId } from './request-body-facts';
import { sendSessionLimit } from './send-session-limit';
import { newSessionToolCalls } from './session-tool-calls';
import type { SessionToolCalls } from './session-tool-calls';
import { postRequestIds } from './session-link';
import { SharedSessions } from './shared-sessions';
import { toClientId } from './to-client-id';

/** Options of {@link SessionEndpoint}. */
export interface SessionEndpointOptions {
  readonly sessionIdleTimeoutMs: number;
  readonly maxSessions: number;
  /** Most sessions open at once from one client address (429 beyond). */
  readonly maxSessionsPerClient: number;
  readonly enableJsonResponse: boolean;
  /** Stateful mode: builds the event store of a new session (resumable streams); none when undefined. */
  readonly createEventStore?: () => ResumableEventStore;
  /** Stateful mode: the SSE `retry` field sent with resumable streams, in ms. */
  readonly sseRetryMs?: number;
  /**
   * Stateful mode: most GET streams open at once per session, its notification stream and resumed streams
   * together (429 beyond); default one more than `serverOptions.maxConcurrentCalls` (16 when unset).
   */
  readonly maxGetStreamsPerSession?: number;
  /**
   * Stateful mode: session records, events and wake-ups shared by every process serving the agent (the
   * Redis backend); without it sessions live in this process only.
   */
  readonly sharedState?: SharedSessionState;
  /** Options of every MCP server built (one per session, or one per stateless request). */
  readonly serverOptions: McpServerOptions;
  readonly onError?: (error: unknown) => void;
}

/**
 * The stateful 2025-11-25 endpoint: opens a session on `initialize` (under `maxSessions` and
 * `maxSessionsPerClient`, 429 beyond), finds it by `Mcp-Session-Id` (unknown or expired ids get 404), and
 * hands each request to the SDK transport of its session, or answers it on the fast path; GET holds the
 * session's notification stream (or resumes one), DELETE ends it. With shared state, a session opened by
 * another process is served from a local replica of its record.
 */
export class SessionEndpoint implements McpRevisionEndpoint {
  readonly methods: readonly string[] = Object.freeze(['GET', 'POST', 'DELETE']);
  /** The sessions open here (with shared state: the local copies of shared sessions). */
  readonly sessions: McpSessionStore;
  // The tools/list and tools/call handling both paths run (the SDK's request handlers and the fast path).
  private readonly calls: SessionToolCalls;
  private readonly fast: FastToolCalls;
  private readonly maxGetStreams: number;
  private readonly shared: SharedSessions | undefined;

  constructor(
    agent: ServableAgent,
    private readonly options: SessionEndpointOptions,
  ) {
    this.sessions = new McpSessionStore({
      idleTimeoutMs: options.sessionIdleTimeoutMs,
      shared: options.sharedState !== undefined,
    });
    if (options.sharedState)
      this.shared = new SharedSessions(options.sharedState, {
        retryMs: options.sseRetryMs,
        onError: (error) => options.onError?.(error),
      });
    const serverOptions = {
      ...options.serverOptions,
      taskStore: options.serverOptions.taskStore ?? options.sharedState?.tasks,
    };
    this.calls = newSessionToolCalls(
      agent,
      serverOptions,
      resolveInteractionTimeoutMs(serverOptions.interactionTimeoutMs),
    );
    this.fast = new FastToolCalls(this.calls);
    // A legitimate client needs its notification stream plus one resume per call it has running.
    this.maxGetStreams =
      options.maxGetStreamsPerSession ??
      (serverOptions.maxConcurrentCalls ?? DEFAULT_MAX_CONCURRENT_CALLS) + 1;
  }

  /** How many sessions are open. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Answers one GET, POST or DELETE: in the session its `Mcp-Session-Id` names, or an `initialize`. */
  async handle(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    const header = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) await this.handleInSession(sessionId, request, response, body);
    else await this.initialize(request, response, body);
  }

  /**
   * Stops the tasks this endpoint runs (recorded `failed` while the task store is still reachable), then
   * closes every session.
   */
  async close(): Promise<void> {
    await this.calls.close();
    this.shared?.close();
    await this.sessions.closeAll();
  }

  private async handleInSession(
    sessionId: string,
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
  ): Promise<void> {
    const sessions = this.sessions;
    const session = this.shared
      ? await this.shared.resolve(
          this.shared.keyOf(sessionId, request),
          sessions.get(sessionId),
          response,
          (record, key) => this.openReplica(record, key, request.socket.remoteAddress ?? 'unknown'),
        )
      : sessions.get(sessionId);
    if (!session) {
      if (!this.shared)
        sendJsonRpcError(
          response,
          404,
          -32001,
          'Session not found: it expired or was closed; start a new session with initialize.',
        );
      return;
    }
    // A GET only holds the notification stream open: the session stays idle (and can expire) meanwhile.
    const untrack = sessions.track(session, request.method !== 'GET');
    if (
      request.method === 'GET' &&
      (await admitGetStream(session, request, response, this.maxGetStreams, this.shared)) === 'answered'
    ) {
      untrack();
      return;
    }
    if (this.shared && request.method === 'GET' && isPlainSseRequest(request)) {
      await this.shared.follow(session, request, response, untrack);
      return;
    }
    if (this.shared && request.method === 'DELETE' && !(await this.shared.terminate(session, response))) {
      untrack();
      return;
    }
    if (request.method === 'POST') cancelFastCalls(session, body);
    if (this.shared && request.method === 'POST') {
      body = await this.shared.route(session, body, response);
      if (body === undefined) {
        untrack();
        return;
      }
    }
    const fast = request.method === 'POST' ? this.fast.match(request, body) : undefined;
    if (fast) {
      const scope: FastRequestScope = {
        state: session.calls,
        sessionId: session.id,
        server: session.server,
        inFlight: session.fastCalls,
      };
      if (this.fast.canRun(fast, scope)) {
        response.once('close', untrack);
        await this.fast.answer(fast, scope, request, response);
        return;
      }
    }
    alignProtocolVersion(request, session.protocolVersion);
    const soloId = soloRequestId(body);
    if (soloId !== undefined) session.soloResponses.set(soloId, response);
    await this.dispatch(session.transport, request, response, body, () => {
      untrack();
      if (soloId !== undefined && session.soloResponses.get(soloId) === response)
        session.soloResponses.delete(soloId);
    });
  }

  /** A request without `Mcp-Session-Id`: an `initialize` opens a session, anything else gets 400. */
  private async initialize(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    const sessions = this.sessions;
    if (request.method !== 'POST' || !containsInitialize(body)) {
      sendJsonRpcError(
        response,
        400,
        -32000,
        'Bad Request: no Mcp-Session-Id header; send initialize first to open a session.',
      );
      return;
    }
    const { maxSessions, maxSessionsPerClient } = this.options;
    // Shared sessions are counted in the store (below); this process's idlest copy can make room for memory.
    if (sessions.held >= maxSessions && !(this.shared && sessions.releaseIdlest())) {
      sendSessionLimit(response, 'maxSessions', maxSessions);
      return;
    }
    const clientAddress = request.socket.remoteAddress ?? 'unknown';
    if (!this.shared && sessions.countFor(clientAddress) >= maxSessionsPerClient) {
      sendSessionLimit(response, 'maxSessionsPerClient', maxSessionsPerClient);
      return;
    }
    let key: SessionKey | undefined;
    if (this.shared) {
      key = this.shared.keyOf(randomUUID(), request);
      const admission = { maxSessions, maxSessionsPerClient, client: toClientId(clientAddress) };
      if (!(await this.shared.create(key, body, response, admission))) return;
    }
    const session = await this.openSession(clientAddress, key);
    session.protocolVersion = negotiateProtocolVersion(body);
    const untrack = sessions.track(session);
    await this.dispatch(session.transport, request, response, body, () => {
      untrack();
      // An initialize the transport refused never became a session: release its server (and its record).
      if (session.id) return;
      void session.server.close().catch(() => undefined);
      if (key) void this.options.sharedState?.sessions.delete(key).catch(() => undefined);
    });
  }

  /** A local copy of a session another process opened, from its record (shared state only). */
  private async openReplica(
    record: SessionRecord,
    key: SessionKey,
    clientAddress: string,
  ): Promise<McpSession> {
    // The session is counted in the store already; at the cap of copies here, the idlest makes room (when
    // every one is busy the copy opens anyway: the session exists).
    if (this.sessions.held >= this.options.maxSessions) this.sessions.releaseIdlest();
    const session = await this.openSession(clientAddress, key);
    try {
      await primeSessionReplica(session.transport, record);
    } catch (error) {
      await session.server.close().catch(() => undefined);
      throw error;
    }
    session.protocolVersion = record.protocolVersion;
    if (record.logLevel !== undefined) session.calls.logLevel.level = record.logLevel as LoggingLevel;
    return session;
  }

  private async openSession(clientAddress: string, key?: SessionKey): Promise<McpSession> {
    const sessions = this.sessions;
    const onCallCanceled = (requestId: RequestId) => releaseCanceledCall(session, requestId);
    const calls = this.calls.newSessionState();
    const server = createSessionMcpServer(this.calls, calls, {
      ...this.options.serverOptions,
      onCallCanceled,
    });
    const session = {
      id: '',
      server,
      calls,
      fastCalls: new Map(),
      clientAddress,
      lastActivity: Date.now(),
      openRequests: 0,
      soloResponses: new Map(),
      eventStore: key ? undefined : this.options.createEventStore?.(),
      getStreams: 0,
    } as unknown as McpSession;
    if (key && this.shared) await this.shared.attach(session, key);
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => key?.sessionId ?? randomUUID(),
      enableJsonResponse: this.options.enableJsonResponse,
      eventStore: session.eventStore as EventStore | undefined,
      retryInterval: session.eventStore ? this.options.sseRetryMs : undefined,
      onsessioninitialized: (id) => {
        session.id = id;
        sessions.add(session);
      },
    });
    session.transport.onclose = () => {
      if (session.id && sessions.get(session.id) === session) sessions.delete(session.id);
      // Deleted or expired (not a copy let go of): its calls and the tasks it owns stop.
      if (session.id && !session.released) endMcpSession(session, this.calls, this.options.onError);
      void session.link?.close().catch((error: unknown) => this.options.onError?.(error));
      // The session's events can never be resumed again: give their memory (and timers) back.
      const store = session.eventStore;
      if (store?.close)
        void Promise.resolve()
          .then(() => store.close?.())
          .catch((error: unknown) => this.options.onError?.(error));
    };
    session.transport.onerror = (error) => {
      // The SDK reports every rejected request here too; those are answered already.
      if (!isAnsweredTransportError(error)) this.options.onError?.(error);
    };
    await server.connect(session.transport);
    if (session.link) {
      session.link.rewriteIds(session.transport);
      session.link.onAnswer((message) => session.transport.onmessage?.(message as JSONRPCMessage));
    }
    return session;
  }

  private async dispatch(
    transport: StreamableHTTPServerTransport,
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    onEnd: () => void,
  ): Promise<void> {
    // A client that disconnects ends its request (and the session's count of open requests).
    response.once('close', onEnd);
    // With shared state, the streams of this POST are recorded as run here (see SessionLink).
    if (this.shared && request.method === 'POST')
      await postRequestIds.run(requestIdsOf(body), () => transport.handleRequest(request, response, body));
    else await transport.handleRequest(request, response, body);
  }
}
