import type { BaseTool } from '../base-tool';

/**
 * Where a tool comes from, for telling a re-registration (same source: a replacement) from a name clash
 * (another source: refused unless asked for). `key` is stable across re-listings of one server.
 */
export interface ToolSource {
  /** `native` (functions, `@Tool` methods, custom BaseTools), `builtin` or `mcp`. */
  readonly kind: 'native' | 'builtin' | 'mcp';
  /** Identifies the source: `native`, `builtin`, `mcp:<server name>`. */
  readonly key: string;
  /** The source in words, for messages: `a native tool`, `the built-in tool`, `MCP server 'github'`. */
  readonly label: string;
}

const NATIVE: ToolSource = Object.freeze({ kind: 'native', key: 'native', label: 'a native tool' });
const BUILTIN: ToolSource = Object.freeze({ kind: 'builtin', key: 'builtin', label: 'a built-in tool' });

/**
 * Returns a tool's source, read from the metadata its builder left: MCP tools carry `metadata.mcp` (with
 * the server's name), built-ins `metadata.builtin`; anything else is native.
 */
export function toolSourceOf(tool: BaseTool): ToolSource {
  const metadata = (tool as { metadata?: unknown }).metadata;
  if (typeof metadata !== 'object' || metadata === null) return NATIVE;
  const { mcp, builtin } = metadata as { mcp?: unknown; builtin?: unknown };
  if (typeof mcp === 'object' && mcp !== null) {
    const server = (mcp as { server?: unknown }).server;
    const name = typeof server === 'string' && server !== '' ? server : 'unnamed';
    return { kind: 'mcp', key: `mcp:${name}`, label: `a tool of MCP server '${name}'` };
  }
  if (typeof builtin === 'object' && builtin !== null) return BUILTIN;
  return NATIVE;
}
