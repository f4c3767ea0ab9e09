import { createHash } from 'node:crypto';
import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { TOOL_NAME_PATTERN } from '../../tools/tool-name';

/** Local names and the remote names they stand for, both ways, and the remote names that got none. */
export interface McpNameMap {
  readonly toLocal: ReadonlyMap<string, string>;
  readonly toRemote: ReadonlyMap<string, string>;
  /** Remote name → why it has no local name (its local form is taken, or is an `Object.prototype` member). */
  readonly problems: ReadonlyMap<string, ToolDefinitionError>;
}

/**
 * Names every JavaScript object already has (`constructor`, `__proto__`, `toString`, …): a generated
 * method of that name would replace or hide what the runtime relies on, so such tools are set aside.
 */
const RESERVED_NAMES: ReadonlySet<string> = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  'prototype',
]);

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
 * Maps every remote name of one server to its local name. A remote name whose local form is already taken
 * (never silently overwritten) or is a member of `Object.prototype` gets no local name and a
 * {@link ToolDefinitionError} in `problems`; the others are mapped as usual. Of two remote names with one
 * local form, the one in `boundRemoteNames` (the remote names pins bind their local names to) keeps it, so
 * the order of a listing cannot move a pinned local name to another tool; otherwise the earlier one does.
 */
export function buildMcpNameMap(
  remoteNames: readonly string[],
  prefix: string,
  serverName: string,
  boundRemoteNames: ReadonlySet<string> = new Set(),
): McpNameMap {
  const toLocal = new Map<string, string>();
  const toRemote = new Map<string, string>();
  const problems = new Map<string, ToolDefinitionError>();
  const bound = remoteNames.filter((remote) => boundRemoteNames.has(remote));
  const others = remoteNames.filter((remote) => !boundRemoteNames.has(remote));
  for (const remote of [...bound, ...others]) {
    const local = toLocalToolName(remote, prefix);
    if (RESERVED_NAMES.has(local)) {
      problems.set(
        remote,
        new ToolDefinitionError(
          `MCP tool ${JSON.stringify(remote)} on server '${serverName}' would get the local name '${local}', which every JavaScript object already has; it is set aside. Give the adapter a namePrefix (e.g. 'mcp_') to use it.`,
          { toolName: remote },
        ),
      );
      continue;
    }
    const clash = toRemote.get(local);
    if (clash !== undefined && clash !== remote) {
      problems.set(
        remote,
        new ToolDefinitionError(
          `MCP server '${serverName}' has the tools ${JSON.stringify(clash)} and ${JSON.stringify(remote)}, which both map to the local name '${local}'; ${JSON.stringify(remote)} is set aside. Rename one on the server.`,
          { toolName: remote },
        ),
      );
      continue;
    }
    toLocal.set(remote, local);
    toRemote.set(local, remote);
  }
  return { toLocal, toRemote, problems };
}
