import { createHash } from 'node:crypto';
import { ToolDefinitionError } from '../../../errors/tool-definition-error';
import { TOOL_NAME_PATTERN } from '../../tool-name';

/** Local names and the remote names they stand for, both ways. */
export interface McpNameMap {
  readonly toLocal: ReadonlyMap<string, string>;
  readonly toRemote: ReadonlyMap<string, string>;
}

/**
 * The local name of a remote tool: `prefix + name` when every provider accepts it, otherwise the invalid
 * characters replaced by `_`, cut to fit, and a short hash of the remote name appended. Stable (the same
 * remote name always gives the same local name) and reversible through {@link buildMcpNameMap}.
 */
export function toLocalToolName(remoteName: string, prefix = ''): string {
  const plain = `${prefix}${remoteName}`;
  if (TOOL_NAME_PATTERN.test(plain)) return plain;
  const hash = createHash('sha256').update(remoteName).digest('hex').slice(0, 8);
  const cleaned = plain.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/_+$/, '');
  return `${cleaned.slice(0, 64 - hash.length - 1)}_${hash}`;
}

/**
 * Maps every remote name of one server to its local name.
 *
 * @throws ToolDefinitionError when two remote tools would share a local name (never silently overwritten).
 */
export function buildMcpNameMap(
  remoteNames: readonly string[],
  prefix: string,
  serverName: string,
): McpNameMap {
  const toLocal = new Map<string, string>();
  const toRemote = new Map<string, string>();
  for (const remote of remoteNames) {
    const local = toLocalToolName(remote, prefix);
    const clash = toRemote.get(local);
    if (clash !== undefined && clash !== remote) {
      throw new ToolDefinitionError(
        `MCP server '${serverName}' has the tools ${JSON.stringify(clash)} and ${JSON.stringify(remote)}, which both map to the local name '${local}'. Rename one on the server.`,
        { toolName: local },
      );
    }
    toLocal.set(remote, local);
    toRemote.set(local, remote);
  }
  return { toLocal, toRemote };
}
