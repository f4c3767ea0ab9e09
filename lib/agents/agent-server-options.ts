import type { RedisClientLike } from '../state/redis-client-like';
import { defineKnownOptions } from '../runtime/assert-known-options';
import {
  LISTENING_SERVER_OPTION_NAMES,
  SHARED_SERVE_OPTION_FLAGS,
  toOptionFlags,
} from './serve-option-names';
import type { RunContext } from '../runtime/run-context';
import type { TaskStore } from '../tasks/task-store';
import type { TaskStoreLimits } from '../tasks/task-store-limits';
import type { ServedCallInfo } from '../mcp/wire/served-call-info';
import { DEFAULT_MAX_EVENT_STORE_BYTES } from '../state/event-store-budget';
import {
  DEFAULT_MAX_STORED_EVENT_BYTES,
  DEFAULT_RESUME_WINDOW_MS,
} from '../state/memory/in-memory-event-store';
import type { ResumableEventStore } from '../state/resumable-event-store';
import { DEFAULT_SESSION_IDLE_TIMEOUT_MS } from '../state/session-store';

/** Options of `startAgentServer` (and of `agent.start()` with the `http` transport). */
export interface AgentServerOptions {
  /** Where to listen (`http://127.0.0.1:8080`; port 0 picks a free one). Default: the card's URL when it is `http://…`, else `http://127.0.0.1:0`. */
  url?: string;
  /** Allow binding to an interface other than loopback (e.g. `0.0.0.0`); off by default. */
  allowNonLoopback?: boolean;
  /** A bearer token every `/mcp` request must carry (`Authorization: Bearer <token>`); none by default. */
  token?: string | null;
  /** `stateful` (default): MCP sessions with ids; `stateless`: every POST stands alone (any load balancer). */
  sessionMode?: 'stateful' | 'stateless';
  /**
   * A stateful session with no request in progress for this long is closed; its id then gets 404 (default
   * 30 min). An open GET stream (server-to-client notifications) does not keep a session alive.
   */
  sessionIdleTimeoutMs?: number;
  /** Most stateful sessions open at once; new ones get 503 beyond it (default 1,000). */
  maxSessions?: number;
  /**
   * Most stateful sessions open at once from one client address; new ones get 429 beyond it (default 100).
   * Behind a reverse proxy every client has the proxy's address.
   */
  maxSessionsPerClient?: number;
  /** Largest request body accepted, in bytes; larger ones get 413 before parsing (default 1 MiB). */
  maxBodyBytes?: number;
  /** Most tool calls running at once per session (per request when stateless); more are refused (default 16). */
  maxConcurrentCallsPerSession?: number;
  /** Stateless mode: most tool calls running at once over all requests; more are refused (default 64). */
  maxConcurrentStatelessCalls?: number;
  /** `startAgentServer` only: a client must send a request's headers within this time (default 10 s). */
  headersTimeoutMs?: number;
  /**
   * `startAgentServer` only: a client must send a whole request (headers and body) within this time (default
   * 30 s; at least `headersTimeoutMs`). Responses (SSE streams) are not bounded by it.
   */
  requestTimeoutMs?: number;
  /** `startAgentServer` only: an idle keep-alive connection is closed after this time (default 5 s). */
  keepAliveTimeoutMs?: number;
  /**
   * `startAgentServer` only: most TCP connections open at once, open streams included; more are closed at
   * once (default 2,048).
   */
  maxConnections?: number;
  /**
   * The URL clients use to reach the server when it sits behind a reverse proxy or load balancer
   * (`https://agent.example.com`): its `Host` and `Origin` are accepted like the server's own (every other
   * host stays refused), and the card advertises it when the card's own URL is missing, asks for any free
   * port (`:0`), or names the address the server listens on. http(s) only, no credentials, query or fragment.
   */
  publicUrl?: string;
  /**
   * Stateful mode: share the MCP sessions, their resumable events and the wake-ups between processes through
   * Redis, so any process behind a load balancer (no sticky sessions) can answer any session: a
   * `redis://`/`rediss://` URL, or a node-redis client you made (used as is, never closed by the server). Needs
   * the optional peer `redis`; loaded only when given. Replaces `eventStore` (the events live in Redis,
   * bounded by `maxEventStoreBytesPerSession` and `eventStoreResumeWindowMs`, and with the bus messages by
   * `maxEventStoreBytes` over every session of the key prefix; a session's bus messages by twice
   * `maxBodyBytes`). See docs/scaling.md.
   */
  redis?: string | RedisClientLike;
  /** Prefix of every Redis key and channel (default `protolink:`); give each agent sharing one Redis its own. */
  redisKeyPrefix?: string;
  /** Extra accepted `Host` values (host name or `host:port`); loopback names and the listen host are always accepted. */
  allowedHosts?: readonly string[];
  /** Accepted `Origin` values besides the server's own loopback origins, or `'*'` for any (browsers; use with a token). */
  allowedOrigins?: readonly string[] | '*';
  /** Answer with plain JSON instead of an SSE stream (no progress notifications; slightly faster). */
  enableJsonResponse?: boolean;
  /**
   * Stateful mode: stores the events of each session's streams so a client can resume a call's stream with
   * `Last-Event-ID` after it closed (a dropped connection, or `context.closeSSEStream()` for polling,
   * SEP-1699). Default: a bounded in-memory store per session (the newest 1,000 events, within
   * `maxEventStoreBytesPerSession` and, over all sessions, `maxEventStoreBytes`; a call's events are released
   * `eventStoreResumeWindowMs` after its response); `false` turns resumability off; a factory gives each
   * session a store of your own (e.g. backed by Redis; give it `getStreamIdForEventId` so made-up
   * `Last-Event-ID`s are refused).
   */
  eventStore?: false | (() => ResumableEventStore);
  /** Stateful mode: the reconnection delay sent to clients in the SSE `retry` field, in ms (default 1,000). */
  sseRetryMs?: number;
  /**
   * Stateful mode, default event store: most bytes of events kept per session, each event counting its
   * serialized JSON-RPC message plus 100 bytes (on Redis: what Redis allocates for it, see docs/scaling.md);
   * the oldest are dropped first, and a resume from a dropped event gets 400 (default 8 MiB).
   */
  maxEventStoreBytesPerSession?: number;
  /**
   * Stateful mode, default event store: most bytes of events kept over all sessions together; the oldest
   * events of any session are dropped first (default 64 MiB). With `redis`: over every session of the key
   * prefix, their bus messages included, counted as Redis allocates them (default 64 MiB, or half of Redis's
   * `maxmemory` when that is less; at least `maxEventStoreBytesPerSession`).
   */
  maxEventStoreBytes?: number;
  /**
   * Stateful mode, default event store: how long a stream's events stay resumable after its final response
   * was stored, in ms; then they are released and a resume from them gets 400 (default 30 s, or twice
   * `sseRetryMs` when that is longer, so a polling client has time to come back).
   */
  eventStoreResumeWindowMs?: number;
  /**
   * Stateful mode: most GET streams open at once per session, its notification stream and resumed streams
   * together; more get 429 (default `maxConcurrentCallsPerSession` + 1: the notification stream plus one
   * resume per call that may run).
   */
  maxGetStreamsPerSession?: number;
  /**
   * Longest wait, in ms, for the client's answer when a tool asks the user (`context.elicit`, approval
   * through elicitation) or the client's model (`context.sample`) (default 300,000: a person may be slow).
   */
  interactionTimeoutMs?: number;
  /**
   * Where tasks live (task-augmented `tools/call` of tools declared with `task: 'optional' | 'required'`):
   * default the Redis task store with `redis`, else the agent's `taskStore` (an `InMemoryTaskStore`).
   */
  taskStore?: TaskStore;
  /** The longest TTL a task gets, and the TTL of one asked without, in ms (default one hour). */
  maxTaskTtlMs?: number;
  /**
   * With `redis`: the bounds of the Redis task store (tasks and result bytes per owner and over the key
   * prefix; defaults in `TASK_STORE_LIMIT_DEFAULTS`, see docs/tasks.md). Refused without `redis` or with
   * `taskStore`: give that store its bounds where it is made (`new InMemoryTaskStore({ … })`).
   */
  taskStoreLimits?: TaskStoreLimits;
  /**
   * The `pollInterval` suggested to task clients, and how often the store is read while `tasks/result` waits
   * or a running task looks for a cancellation made by another process, in ms (default 1,000).
   */
  taskPollIntervalMs?: number;
  /**
   * Most resources one session may be subscribed to at once (in each process that serves it); a
   * `resources/subscribe` beyond gets the JSON-RPC error -32029 until it unsubscribes from one (default 1,000).
   */
  maxSubscriptionsPerSession?: number;
  /**
   * Builds the RunContext of each call; it must honour `info.signal`. Use it for per-session budgets and
   * permissions (`sessionContext(info.sessionId).child({ signal: info.signal })`).
   */
  buildContext?: (info: ServedCallInfo) => RunContext;
  /**
   * Told about unexpected errors: tool failures that are not Protolink errors, policies or approval handlers
   * that failed (clients get a generic message for both), transport errors. `toolName` is given for the
   * errors of a tool call.
   */
  onError?: (error: unknown, toolName?: string) => void;
}

/** A running agent server. */
export interface AgentServerHandle {
  /** The base URL the server answers on (`http://127.0.0.1:43127`). */
  readonly url: string;
  /** The MCP endpoint (`<url>/mcp`). */
  readonly mcpUrl: string;
  /** The agent card (`<url>/.well-known/agent.json`). */
  readonly cardUrl: string;
  /** The port listened on. */
  readonly port: number;
  /** How many stateful MCP sessions are open. */
  readonly sessionCount: number;
  /** Stops listening, closes every session and connection; resolves when the port is free. */
  close(): Promise<void>;
}

/** The defaults of {@link AgentServerOptions}. */
export const AGENT_SERVER_DEFAULTS = Object.freeze({
  url: 'http://127.0.0.1:0',
  sessionMode: 'stateful' as const,
  sessionIdleTimeoutMs: DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  maxSessions: 1000,
  maxSessionsPerClient: 100,
  maxBodyBytes: 1024 * 1024,
  maxConcurrentCallsPerSession: 16,
  maxConcurrentStatelessCalls: 64,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 2048,
  maxEventStoreBytesPerSession: DEFAULT_MAX_STORED_EVENT_BYTES,
  maxEventStoreBytes: DEFAULT_MAX_EVENT_STORE_BYTES,
  eventStoreResumeWindowMs: DEFAULT_RESUME_WINDOW_MS,
});

/** Advice for names people pass to a server that are not its options (the original's spellings aside). */
export const SERVER_OPTION_ADVICE: Readonly<Record<string, string>> = Object.freeze({
  stateless: "use sessionMode: 'stateless'",
  jsonResponse: 'use enableJsonResponse: true',
  authToken: 'use token (clients send Authorization: Bearer <token>)',
  bearerToken: 'use token (clients send Authorization: Bearer <token>)',
  maxConcurrentCalls: 'use maxConcurrentCallsPerSession (and maxConcurrentStatelessCalls in stateless mode)',
});

/** The options of `startAgentServer()` and `agent.start()`, and advice for the names people pass instead. */
export const AGENT_SERVER_OPTIONS = defineKnownOptions<AgentServerOptions>(
  'startAgentServer()',
  { ...SHARED_SERVE_OPTION_FLAGS, ...toOptionFlags(LISTENING_SERVER_OPTION_NAMES) },
  {
    ...SERVER_OPTION_ADVICE,
    host: "put the address in url, e.g. url: 'http://127.0.0.1:8080'",
    port: "put the port in url, e.g. url: 'http://127.0.0.1:8080' (port 0 picks a free one)",
    path: 'the MCP endpoint is /mcp; for another path mount createAgentRequestHandler(agent, { path }) in your own server',
    cardPath:
      'the card is served at /.well-known/agent.json; for another path mount createAgentRequestHandler(agent, { cardPath }) in your own server',
  },
);
