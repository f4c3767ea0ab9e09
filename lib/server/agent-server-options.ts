import type { RunContext } from '../runtime/run-context';
import type { ServedCallInfo } from './create-mcp-server';

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
  /** A stateful session with no open request for this long is closed; its id then gets 404 (default 30 min). */
  sessionIdleTimeoutMs?: number;
  /** Most stateful sessions open at once; new ones get 503 beyond it (default 1,000). */
  maxSessions?: number;
  /** Largest request body accepted, in bytes; larger ones get 413 before parsing (default 1 MiB). */
  maxBodyBytes?: number;
  /** Most tool calls running at once per session (per request when stateless); more are refused (default 16). */
  maxConcurrentCallsPerSession?: number;
  /** Extra accepted `Host` values (host name or `host:port`); loopback names and the listen host are always accepted. */
  allowedHosts?: readonly string[];
  /** Accepted `Origin` values besides the server's own loopback origins, or `'*'` for any (browsers; use with a token). */
  allowedOrigins?: readonly string[] | '*';
  /** Answer with plain JSON instead of an SSE stream (no progress notifications; slightly faster). */
  enableJsonResponse?: boolean;
  /**
   * Builds the RunContext of each call; it must honour `info.signal`. Use it for per-session budgets and
   * permissions (`sessionContext(info.sessionId).child({ signal: info.signal })`).
   */
  buildContext?: (info: ServedCallInfo) => RunContext;
  /**
   * Told about unexpected errors: tool failures that are not Protolink errors, policies or approval handlers
   * that failed (clients get a generic message for both), transport errors.
   */
  onError?: (error: unknown) => void;
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
  sessionIdleTimeoutMs: 30 * 60 * 1000,
  maxSessions: 1000,
  maxBodyBytes: 1024 * 1024,
  maxConcurrentCallsPerSession: 16,
});
