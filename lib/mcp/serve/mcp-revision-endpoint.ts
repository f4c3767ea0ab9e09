import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * What the `/mcp` front door hands a request to: one protocol revision's way of serving it (the 2025-11-25
 * session endpoint, or its stateless twin). The door has checked the method against {@link methods} and read
 * and parsed the body once; the revision's endpoint does everything else.
 */
export interface McpRevisionEndpoint {
  /** The HTTP methods it serves; the door answers any other with 405, naming these in `Allow`. */
  readonly methods: readonly string[];
  /** How many sessions it holds open (0 for a revision or mode without sessions). */
  readonly sessionCount: number;
  /**
   * Answers one request to `/mcp` (never a method outside {@link methods}).
   *
   * @param body - the POST's body, parsed JSON-RPC (read once by the door); undefined for GET and DELETE
   */
  handle(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void>;
  /** Stops its running calls and tasks, then closes what it holds open. */
  close(): Promise<void>;
}
