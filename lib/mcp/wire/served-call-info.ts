/**
 * What the server knows about one incoming call, for `buildContext` (of `createMcpServer`,
 * `startAgentServer`, `createAgentRequestHandler` and `agent.start()`). It lives in a file of its own, free
 * of the MCP SDK, so the `protolink` entry's declarations (agent options) never reach the SDK's.
 */
export interface ServedCallInfo {
  /** The tool asked for. */
  readonly toolName: string;
  /** The MCP session id (stateful HTTP), or null (stateless HTTP, stdio). */
  readonly sessionId: string | null;
  /** Aborts when the client cancels the call or disconnects. */
  readonly signal: AbortSignal;
  /** How the call arrived: `http` or `stdio`. */
  readonly transport: 'http' | 'stdio';
}
