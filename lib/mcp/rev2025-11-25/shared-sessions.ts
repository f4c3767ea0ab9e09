import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage, LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { SessionLimitError } from '../../errors/session-limit-error';
import { SessionStoreDataError } from '../../errors/session-store-data-error';
import { ToolInputError } from '../../errors/tool-input-error';
import {
  SESSION_STORE_UNAVAILABLE_HTTP_STATUS,
  SESSION_STORE_UNAVAILABLE_RPC_CODE,
  SessionStoreUnavailableError,
} from '../../errors/session-store-unavailable-error';
import type { SessionKey } from '../../state/session-key';
import type { SessionAdmission, SessionRecord } from '../../state/session-store';
import type { SharedSessionState } from '../serve/shared-session-state';
import { toTokenSubject } from '../../state/to-token-subject';
import { negotiateProtocolVersion } from './align-protocol-version';
import type { McpSession } from './mcp-session-store';
import { readBearerToken } from '../wire/read-bearer-token';
import { sendJsonRpcError } from '../wire/send-json-rpc-error';
import { sendSessionLimit } from './send-session-limit';
import { claimTtlMs, SessionLink } from './session-link';
import { cancelFastCalls } from './request-body-facts';
import { serveFollowedStream } from './serve-followed-stream';

/** Most bytes of a client's `capabilities` and `clientInfo` (as JSON) kept in a shared session's record. */
export const MAX_STORED_CLIENT_BYTES = 64 * 1024;

/** How often a process renews its heartbeat, and how long one lasts (a dead process is known within this). */
const HEARTBEAT_INTERVAL_MS = 1_000;
const HEARTBEAT_TTL_MS = 3_000;

/** The levels `logging/setLevel` takes (anything else is refused by the SDK and never shared). */
const LOG_LEVELS = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);

/** Options of {@link SharedSessions}. */
export interface SharedSessionsOptions {
  /** The SSE `retry` field of the GET streams served from the shared log, in ms. */
  readonly retryMs?: number;
  /** Failures that reach no client (a bus message that is not JSON, a stream cut by the store). */
  readonly onError: (error: unknown) => void;
}

/** What the endpoint does for {@link SharedSessions}: builds a local copy of a session from its record. */
export type BuildReplica = (record: SessionRecord, key: SessionKey) => Promise<McpSession>;

/**
 * The stateful sessions of an endpoint when several processes serve the agent: records in the shared
 * {@link SharedSessionState.sessions} (so any process answers any live session, and a deleted or expired one
 * is 404 on all at once), a local copy of each session in use here (rebuilt from its record), the client's
 * answers and cancels routed over the bus to the process they concern, and GET streams served from the
 * shared log. A store that cannot be reached gets HTTP 503 with JSON-RPC -32603 `session store unavailable`.
 */
export class SharedSessions {
  /** This process among those serving the agent (12 hex digits, in the ids of its requests to clients). */
  readonly instanceId = randomBytes(6).toString('hex');
  private readonly building = new Map<string, Promise<McpSession>>();

  private readonly onError: (error: unknown) => void;

  private readonly heartbeat: NodeJS.Timeout | undefined;
  private heartbeatFailing = false;
  /** The sessions linked here; those running calls keep their record and their streams' claims alive. */
  private readonly attached = new Set<McpSession>();
  private lastRenewal = Date.now();

  constructor(
    private readonly shared: SharedSessionState,
    private readonly options: SharedSessionsOptions,
  ) {
    this.onError = options.onError;
    if (shared.leases) {
      this.beat();
      this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_INTERVAL_MS);
      this.heartbeat.unref();
    }
  }

  /** Stops this process's heartbeat (its sessions' shared state stays). */
  close(): void {
    clearInterval(this.heartbeat);
    this.attached.clear();
  }

  private beat(): void {
    this.shared.leases?.heartbeat(this.instanceId, HEARTBEAT_TTL_MS).then(
      () => (this.heartbeatFailing = false),
      (error: unknown) => {
        // Reported once per outage, not every second.
        if (!this.heartbeatFailing) this.onError(error);
        this.heartbeatFailing = true;
      },
    );
    const now = Date.now();
    if (now - this.lastRenewal >= claimTtlMs(this.shared.sessions.idleTimeoutMs) / 3) {
      this.lastRenewal = now;
      void this.renewRunning();
    }
  }

  /**
   * A call running here is use of its session, however long it takes and wherever its client waits (a GET on
   * another process): its record is touched, so it does not expire meanwhile, and its streams' claims renewed.
   */
  private async renewRunning(): Promise<void> {
    for (const session of [...this.attached]) {
      const link = session.link;
      if (!link || link.isClosed) {
        this.attached.delete(session);
        continue;
      }
      const { gate, runningTasks } = session.calls;
      try {
        // Calls running here, or requests still unanswered on streams claimed here (a long tasks/result).
        if (gate.active - runningTasks > 0 || link.pendingClaims > 0) {
          if (await this.shared.sessions.touch(link.key)) await link.renewClaims();
          else this.end(session);
        } else if (runningTasks > 0 && !(await this.shared.sessions.get(link.key))) {
          // Task runs are not use of the session (their client polls): they stop once it expired.
          this.end(session);
        }
      } catch (error) {
        // The heartbeat reports an outage once; anything else is this session's problem, reported.
        if (!(error instanceof SessionStoreUnavailableError)) this.onError(error);
      }
    }
  }

  /** The session is gone from the store (expired, or deleted with its bus message lost): its copy closes. */
  private end(session: McpSession): void {
    this.attached.delete(session);
    void session.server.close().catch(() => undefined);
  }

  /** The key of a request's session: its id and the subject of the bearer token it carries. */
  keyOf(sessionId: string, request: IncomingMessage): SessionKey {
    return { sessionId, tokenSubject: toTokenSubject(readBearerToken(request)) };
  }

  /**
   * Links a session opened or rebuilt here to the other processes (before its transport exists): its channel,
   * and its event store on the shared log. Call `link.rewriteIds` once its server connected.
   */
  async attach(session: McpSession, key: SessionKey): Promise<void> {
    const link = new SessionLink(key, this.instanceId, this.shared, {
      onCancel: (message) => {
        cancelFastCalls(session, message);
        session.transport?.onmessage?.(message as JSONRPCMessage);
      },
      onLevel: (level) => (session.calls.logLevel.level = level as LoggingLevel),
      onClosed: () => void session.server.close().catch(() => undefined),
      onError: (error) => this.onError(error),
      onLinkClosed: () => this.attached.delete(session),
    });
    await link.open();
    session.link = link;
    session.eventStore = link.eventStore;
    this.attached.add(session);
  }

  /** A GET of a shared session: its notification stream or a resume, served from the shared log. */
  async follow(
    session: McpSession,
    request: IncomingMessage,
    response: ServerResponse,
    untrack: () => void,
  ): Promise<void> {
    response.once('close', untrack);
    try {
      await serveFollowedStream(request, response, {
        link: session.link!,
        sessionId: session.id,
        retryMs: this.options.retryMs,
        leases: this.shared.leases,
        onError: this.onError,
      });
    } catch (error) {
      this.answerStoreError(error, response);
    }
  }

  /**
   * Records a new session before its initialize is handled, counted against the caps of `admission` over
   * every process. Resolves false, having answered, when the store cannot take it (503 or 429 at a cap, as
   * one process answers).
   */
  async create(
    key: SessionKey,
    body: unknown,
    response: ServerResponse,
    admission: SessionAdmission,
  ): Promise<boolean> {
    const messages = Array.isArray(body) ? body : [body];
    const initialize = messages.find(isInitializeRequest);
    const clientCapabilities = (initialize?.params.capabilities ?? {}) as Record<string, unknown>;
    const clientInfo = (initialize?.params.clientInfo ?? {}) as Record<string, unknown>;
    // Every process reads the record back, for as long as the session lives: what the client says of itself
    // is kept only within a bound, or one client could fill the store with a few large initialize bodies.
    const clientBytes = Buffer.byteLength(JSON.stringify(clientCapabilities) + JSON.stringify(clientInfo));
    if (clientBytes > MAX_STORED_CLIENT_BYTES) {
      sendJsonRpcError(
        response,
        400,
        -32602,
        `Invalid params: initialize's capabilities and clientInfo take ${clientBytes} bytes, over the ${MAX_STORED_CLIENT_BYTES} this server keeps for a session; send less.`,
      );
      return false;
    }
    try {
      await this.shared.sessions.create(
        { ...key, protocolVersion: negotiateProtocolVersion(body), clientCapabilities, clientInfo },
        admission,
      );
      return true;
    } catch (error) {
      if (error instanceof SessionLimitError) sendSessionLimit(response, error.limit, error.max);
      else this.answerStoreError(error, response);
      return false;
    }
  }

  /**
   * The local copy of a request's session: `local` when this process has one and the session still lives,
   * else one built from the stored record. Resolves undefined, having answered (404, or 503 when the store
   * is down), when there is none.
   */
  async resolve(
    key: SessionKey,
    local: McpSession | undefined,
    response: ServerResponse,
    build: BuildReplica,
  ): Promise<McpSession | undefined> {
    try {
      if (local && local.link && sameSubject(local.link.key, key)) {
        if (await this.shared.sessions.touch(key)) return local;
        void local.server.close().catch(() => undefined);
        sendSessionNotFound(response);
        return undefined;
      }
      if (local) {
        sendSessionNotFound(response);
        return undefined;
      }
      const [record, touched] = await Promise.all([
        this.shared.sessions.get(key),
        this.shared.sessions.touch(key),
      ]);
      if (!record || !touched) {
        sendSessionNotFound(response);
        return undefined;
      }
      const id = `${key.tokenSubject ?? ''}\n${key.sessionId}`;
      let pending = this.building.get(id);
      if (!pending) {
        pending = build(record, key).finally(() => this.building.delete(id));
        this.building.set(id, pending);
      }
      return await pending;
    } catch (error) {
      this.answerStoreError(error, response);
      return undefined;
    }
  }

  /**
   * Sends what in a POST body concerns other processes: answers to their requests go to them (and are taken
   * out of the body), cancels and log levels go to every process (and stay in). Resolves the body left for
   * this process, or undefined, having answered, when nothing is left or the bus is down.
   */
  async route(session: McpSession, body: unknown, response: ServerResponse): Promise<unknown> {
    const link = session.link;
    if (!link) return body;
    const messages = Array.isArray(body) ? body : [body];
    const kept: unknown[] = [];
    const sends: Promise<void>[] = [];
    for (const message of messages) {
      const owner = SessionLink.ownerOfAnswer(message);
      if (owner !== undefined && owner !== this.instanceId) {
        sends.push(link.publish({ t: 'answer', to: owner, m: message as Record<string, unknown> }));
        continue;
      }
      kept.push(message);
      const { method, id, params } = message as {
        method?: unknown;
        id?: unknown;
        params?: { level?: unknown };
      };
      if (method === 'notifications/cancelled' && id === undefined) {
        sends.push(
          link.publish({ t: 'cancel', from: this.instanceId, m: message as Record<string, unknown> }),
        );
      } else if (
        method === 'logging/setLevel' &&
        typeof params?.level === 'string' &&
        LOG_LEVELS.has(params.level)
      ) {
        const level = params.level;
        sends.push(
          this.shared.sessions
            .update(link.key, { logLevel: level })
            .then(() => link.publish({ t: 'level', from: this.instanceId, level })),
        );
      }
    }
    try {
      await Promise.all(sends);
    } catch (error) {
      this.answerStoreError(error, response);
      return undefined;
    }
    if (kept.length === 0) {
      response.writeHead(202).end();
      return undefined;
    }
    return Array.isArray(body) ? kept : kept[0];
  }

  /**
   * Ends a session everywhere (a DELETE): its record and events go, and every process drops its copy.
   * Resolves false, having answered, when the store cannot be reached.
   */
  async terminate(session: McpSession, response: ServerResponse): Promise<boolean> {
    const link = session.link;
    if (!link) return true;
    try {
      await this.shared.sessions.delete(link.key);
      await Promise.all([
        this.shared.events.deleteSession(link.key),
        link.publish({ t: 'closed', from: this.instanceId }),
      ]);
      // After 'closed' (which every process reads at once), the session's bus messages need not stay.
      await this.shared.bus.endSession?.(link.key);
      return true;
    } catch (error) {
      this.answerStoreError(error, response);
      return false;
    }
  }

  /**
   * Answers a request the store failed: 503 and -32603 when it is down, 400 for an event id it no longer
   * holds, 500 for a bad record (that session only).
   */
  answerStoreError(error: unknown, response: ServerResponse): void {
    if (error instanceof SessionStoreUnavailableError) {
      sendJsonRpcError(
        response,
        SESSION_STORE_UNAVAILABLE_HTTP_STATUS,
        SESSION_STORE_UNAVAILABLE_RPC_CODE,
        error.message,
        { 'retry-after': '1' },
      );
      return;
    }
    if (error instanceof ToolInputError) {
      sendJsonRpcError(response, 400, -32000, error.message);
      return;
    }
    this.onError(error);
    const message =
      error instanceof SessionStoreDataError
        ? error.message
        : 'Internal error: the session could not be served from the shared store.';
    sendJsonRpcError(response, 500, -32603, message);
  }
}

function sameSubject(a: SessionKey, b: SessionKey): boolean {
  return (a.tokenSubject ?? '') === (b.tokenSubject ?? '');
}

function sendSessionNotFound(response: ServerResponse): void {
  sendJsonRpcError(
    response,
    404,
    -32001,
    'Session not found: it expired or was closed; start a new session with initialize.',
  );
}
