import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { ServedSessionState } from '../serve/served-tool-calls';
import type { FastCallCancel } from './fast-tool-calls';
import type { ResumableEventStore } from '../../state/resumable-event-store';
import type { SessionLink } from './session-link';

/** One stateful MCP session: its transport, its server, and when it was last used. */
export interface McpSession {
  /** The session id (set when initialize is handled). */
  id: string;
  transport: StreamableHTTPServerTransport;
  readonly server: Server;
  /** The session's call gate and log level, shared by its SDK server and the fast path. */
  readonly calls: ServedSessionState;
  /** The session's calls running on the fast path, by JSON-RPC id (`notifications/cancelled` aborts them). */
  readonly fastCalls: Map<RequestId, FastCallCancel>;
  /** The protocol version the session negotiated at initialize (set once initialize is handled). */
  protocolVersion?: string;
  /** The address of the client that opened the session (for the per-client cap). */
  clientAddress: string;
  /** When the last request of the session arrived or finished (ms since the epoch). */
  lastActivity: number;
  /** Requests of the session in progress (POST, DELETE); an open GET stream is not counted: it is idle. */
  openRequests: number;
  /** Responses of requests that arrived alone in their POST, by JSON-RPC id (released when canceled). */
  soloResponses: Map<RequestId, ServerResponse>;
  /** The session's event store (resumable streams), when it has one. */
  eventStore?: ResumableEventStore;
  /** GET streams of the session open now: its notification stream and resumed ones (capped). */
  getStreams: number;
  /** The session's link to the other processes serving it (shared state only). */
  link?: SessionLink;
  /**
   * Set when this process closes its copy without the session ending (to make room, or as it shuts down):
   * the session's tasks then go on.
   */
  released?: boolean;
}

/** Options of {@link McpSessionStore}. */
export interface McpSessionStoreOptions {
  /** A session with no open request for this long is closed (ms). */
  idleTimeoutMs: number;
  /** How often idle sessions are looked for (ms; default half the idle timeout, 10 ms to 60 s). */
  sweepIntervalMs?: number;
  /**
   * The sessions are copies of sessions shared through a store: an idle copy is only released (the session
   * lives on in the store), and a copy whose tasks run is kept, to hear of the session's end.
   */
  shared?: boolean;
}

/**
 * Holds the stateful MCP sessions of one HTTP server by id and closes the idle ones from a timer that never
 * keeps the process alive. A closed or expired id is simply gone: the server then answers it with 404, as
 * the MCP specification requires, and the client starts a new session. A session that ended while calls of
 * it still run (a tool that ignores its signal, a task owned by the token) is counted against the caps until
 * they end, so ending a session never frees its place early.
 */
export class McpSessionStore {
  private readonly sessions = new Map<string, McpSession>();
  private readonly perClient = new Map<string, number>();
  /** Sessions that ended while calls of theirs still ran: counted until the calls end. */
  private readonly ending = new Set<McpSession>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: McpSessionStoreOptions) {
    const interval =
      options.sweepIntervalMs ?? Math.min(60_000, Math.max(10, Math.floor(options.idleTimeoutMs / 2)));
    this.timer = setInterval(() => this.sweep(), interval);
    this.timer.unref();
  }

  /** How many sessions are open. */
  get size(): number {
    return this.sessions.size;
  }

  /** How many sessions count against `maxSessions`: those open, and those ended whose calls still run. */
  get held(): number {
    this.pruneEnding();
    return this.sessions.size + this.ending.size;
  }

  /** How many sessions the client at `address` holds (open, or ended with calls still running). */
  countFor(address: string): number {
    this.pruneEnding();
    let ending = 0;
    for (const session of this.ending) if (session.clientAddress === address) ending += 1;
    return (this.perClient.get(address) ?? 0) + ending;
  }

  private pruneEnding(): void {
    for (const session of this.ending) if (session.calls.gate.active === 0) this.ending.delete(session);
  }

  /** Returns the session with this id, or undefined when it does not exist (never did, closed or expired). */
  get(id: string): McpSession | undefined {
    return this.sessions.get(id);
  }

  /** Adds a session. */
  add(session: McpSession): void {
    if (this.sessions.has(session.id)) return;
    this.sessions.set(session.id, session);
    this.perClient.set(session.clientAddress, (this.perClient.get(session.clientAddress) ?? 0) + 1);
  }

  /**
   * Forgets a session (after its transport closed); forgetting it twice is harmless. A session whose calls
   * still run stays counted until they end (not a copy this process let go of: its session lives on).
   */
  delete(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    if (!session.released && session.calls.gate.active > 0) this.ending.add(session);
    const left = (this.perClient.get(session.clientAddress) ?? 0) - 1;
    if (left > 0) this.perClient.set(session.clientAddress, left);
    else this.perClient.delete(session.clientAddress);
  }

  /**
   * Marks the start of a request of the session; call the returned function when the request ends. A
   * request that only holds a stream open (`busy: false`, the GET stream) counts as activity when it starts
   * and ends, but leaves the session idle meanwhile, so a client cannot pin a session with it.
   */
  track(session: McpSession, busy = true): () => void {
    if (busy) session.openRequests += 1;
    session.lastActivity = Date.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (busy) session.openRequests -= 1;
      session.lastActivity = Date.now();
    };
  }

  /**
   * Closes this process's copy of the session idle longest (no request, stream or call in progress), to make
   * room for another: only for sessions shared through a store, where the copy is rebuilt from the store
   * when the session comes back. Returns false when every session is busy.
   */
  releaseIdlest(): boolean {
    let idlest: McpSession | undefined;
    for (const session of this.sessions.values()) {
      if (session.openRequests > 0 || session.getStreams > 0 || session.calls.gate.active > 0) continue;
      if (!idlest || session.lastActivity < idlest.lastActivity) idlest = session;
    }
    if (!idlest) return false;
    idlest.released = true;
    this.delete(idlest.id);
    void closeSession(idlest);
    return true;
  }

  /** Whether the session is in use: a request in progress, or a call running that is use of it. */
  private isBusy(session: McpSession): boolean {
    if (session.openRequests > 0) return true;
    const { gate, runningTasks } = session.calls;
    // A task's client polls: its run alone does not keep the session (a copy of a shared one is kept).
    return this.options.shared ? gate.active > 0 : gate.active - (runningTasks ?? 0) > 0;
  }

  /**
   * Closes every session idle longer than the idle timeout: no request in progress and no plain call running
   * (a call whose response stream the server closed, or the client dropped, still runs, and its client
   * resumes it). A task's run does not keep its session: the session expires, and its tasks are cancelled.
   * Shared copies are only released here (the store says when their session ends).
   */
  sweep(now: number = Date.now()): void {
    for (const session of [...this.sessions.values()]) {
      if (!this.isBusy(session) && now - session.lastActivity > this.options.idleTimeoutMs) {
        if (this.options.shared) session.released = true;
        this.delete(session.id);
        void closeSession(session);
      }
    }
  }

  /** Stops the timer and closes every session. */
  async closeAll(): Promise<void> {
    clearInterval(this.timer);
    const sessions = [...this.sessions.values()];
    for (const session of sessions) session.released = true;
    this.sessions.clear();
    this.perClient.clear();
    this.ending.clear();
    await Promise.all(sessions.map(closeSession));
  }
}

async function closeSession(session: McpSession): Promise<void> {
  try {
    await session.server.close();
  } catch {
    // The transport may already be closed by the client (DELETE); nothing is left to release.
  }
}
