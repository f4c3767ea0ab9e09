/**
 * Which session a record, an event or a bus message belongs to: its id and the token subject that opened it.
 * Stores key everything by both, so a request that knows a session id but holds another token reaches
 * nothing of that session.
 */
export interface SessionKey {
  /** The MCP session id (`Mcp-Session-Id`). */
  readonly sessionId: string;
  /**
   * Who opened the session: a hash of the bearer token ({@link toTokenSubject}), never the token itself;
   * undefined when the server has no token auth.
   */
  readonly tokenSubject?: string;
}
