/** The servers the serving bench starts, each in its own process, in the order they are measured. */
export const SERVER_KINDS = [
  'floor',
  'sdk-stateless',
  'stateless',
  'stateful',
  'stateless-token',
  'stateful-token',
] as const;

/** One of {@link SERVER_KINDS}. */
export type ServerKind = (typeof SERVER_KINDS)[number];

/** Whether a kind needs an MCP session (an `initialize` first, then `Mcp-Session-Id` on every call). */
export function isStateful(kind: ServerKind): boolean {
  return kind.startsWith('stateful');
}

/** Whether a kind requires `Authorization: Bearer <token>`. */
export function needsToken(kind: ServerKind): boolean {
  return kind.endsWith('-token');
}
