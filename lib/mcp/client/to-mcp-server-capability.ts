/**
 * The capability every tool of an MCP server carries, `mcp.<server>`: the server name lower-cased, accents
 * dropped, and every run of characters outside `[a-z0-9_-]` (dots included, so a server is one segment)
 * turned into `_`. `{ 'mcp.*': 'require_approval' }` therefore covers every MCP tool, and
 * `{ 'mcp.github': 'deny' }` one server's.
 */
export function toMcpServerCapability(serverName: string): string {
  const segment = serverName
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_');
  return `mcp.${segment || 'server'}`;
}
