/** The servers the serving bench starts, each in its own process, in the order they are measured. */
export const SERVER_KINDS = [
  'floor',
  'sdk-stateless',
  'stateless',
  'stateful',
  'stateless-token',
  'stateful-token',
] as const;

/**
 * The servers only the scale-out bench starts (behind the round-robin proxy): the floor that also makes one
 * Redis round trip per request, and `protolink serve` sharing its sessions through Redis.
 */
export const SCALE_SERVER_KINDS = ['floor-redis', 'stateful-redis'] as const;

/** One of {@link SERVER_KINDS} or {@link SCALE_SERVER_KINDS}. */
export type ServerKind = (typeof SERVER_KINDS)[number] | (typeof SCALE_SERVER_KINDS)[number];

/** Whether `kind` names a bench server. */
export function isServerKind(kind: string): kind is ServerKind {
  return (
    (SERVER_KINDS as readonly string[]).includes(kind) ||
    (SCALE_SERVER_KINDS as readonly string[]).includes(kind)
  );
}

/** Whether a kind needs an MCP session (an `initialize` first, then `Mcp-Session-Id` on every call). */
export function isStateful(kind: ServerKind): boolean {
  return kind.startsWith('stateful');
}

/** Whether a kind requires `Authorization: Bearer <token>`. */
export function needsToken(kind: ServerKind): boolean {
  return kind.endsWith('-token');
}
