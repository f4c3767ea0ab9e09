import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { diffMcpDefinition } from './diff-mcp-definition';
import type { MCPCatalogDefinition, MCPCatalogKind } from './mcp-catalog-definition';
import { keyOfMcpDefinition, MCP_DEFINITION_KINDS, toMcpDefinitionLabel } from './mcp-definition-kind';
import type { McpDefinitionKind, McpDefinitionOf } from './mcp-definition-kind';
import type { MCPToolDefinition } from './mcp-tool-definition';
import { pinMcpDefinition } from './pin-mcp-definition';
import type { MCPPinnedField, McpPinOf } from './pin-mcp-definition';

/** What the adapter does when a pinned tool's definition changes. */
export type MCPDefinitionChangeMode = 'refuse' | 'warn' | 'accept';

// The two public change types keep their own field docs (a tool's change binds a local name and may put
// another remote tool behind it; the others are named by their key), so they are declared in full.

/**
 * A pinned local name whose definition changed, as the `toolChanged` event and `pendingChanges` describe it:
 * a new description, schema or hint, or another remote tool now listed under the same local name.
 */
export interface MCPToolChange {
  /** The tool's name on the server now (`before.name` is the pinned one; they differ when `fields` has `name`). */
  readonly name: string;
  /** The tool's local name, the one the pin binds. */
  readonly localName: string;
  /** The adapter's server name. */
  readonly serverName: string;
  /** `refused` (not built, calls refused until `acceptChanges`), `warned` or `accepted` (new definition used). */
  readonly action: 'refused' | 'warned' | 'accepted';
  /** The fields that changed. */
  readonly fields: readonly MCPPinnedField[];
  /** One readable line per change (remote name, description before/after, arguments added or now required, hints). */
  readonly details: readonly string[];
  /** The pinned definition. */
  readonly before: MCPToolDefinition;
  /** The definition the server lists now. */
  readonly after: MCPToolDefinition;
  /** The pinned hash and the new one. */
  readonly previousSha256: string;
  readonly sha256: string;
}

/**
 * A pinned resource, resource template or prompt whose definition changed, as the `resourceChanged` and
 * `promptChanged` events and `adapter.pendingCatalogChanges` describe it.
 */
export interface MCPCatalogChange {
  /** What changed: a `resource`, a `resourceTemplate` or a `prompt`. */
  readonly kind: MCPCatalogKind;
  /** Its URI (resource), URI template (template) or name (prompt): what `acceptChanges` takes. */
  readonly name: string;
  /** The adapter's server name. */
  readonly serverName: string;
  /** `refused` (left out, its use refused until `acceptChanges`), `warned` or `accepted` (new definition used). */
  readonly action: 'refused' | 'warned' | 'accepted';
  /** The pinned fields that changed (`description`, `arguments`, `mimeType`…). */
  readonly fields: readonly string[];
  /** One readable line per change (`arguments: new required argument "cc"`, `description: "…" → "…"`). */
  readonly details: readonly string[];
  /** The pinned definition. */
  readonly before: MCPCatalogDefinition;
  /** The definition the server lists now. */
  readonly after: MCPCatalogDefinition;
  /** The pinned hash and the new one. */
  readonly previousSha256: string;
  readonly sha256: string;
}

/** The change of each kind of definition. */
export type McpChangeOf<Kind extends McpDefinitionKind> = Kind extends 'tool'
  ? MCPToolChange
  : MCPCatalogChange;

/** What a change is a change of (tool changes carry no `kind`). */
export function kindOfMcpChange(change: MCPToolChange | MCPCatalogChange): McpDefinitionKind {
  return 'kind' in change ? change.kind : 'tool';
}

/** What {@link toMcpDefinitionChange} compares. */
export interface McpChangedDefinition<Kind extends McpDefinitionKind> {
  readonly kind: Kind;
  /** The pin the definition no longer matches. */
  readonly pin: McpPinOf<Kind>;
  /** The definition listed now, and its hash. */
  readonly definition: McpDefinitionOf[Kind];
  readonly sha256: string;
  /** Tools only: the local name the pin binds. */
  readonly localName?: string;
}

/** Describes a pinned definition's change: which pinned fields differ, one line per change, and what is done. */
export function toMcpDefinitionChange<Kind extends McpDefinitionKind>(
  changed: McpChangedDefinition<Kind>,
  mode: MCPDefinitionChangeMode,
  serverName: string,
): McpChangeOf<Kind> {
  const { kind, pin, definition, sha256, localName } = changed;
  // Compared as pinned, so a new lastModified beside a real change is not listed as one.
  const pinned = pinMcpDefinition(kind, definition, localName).definition as McpDefinitionOf[Kind];
  const diff = diffMcpDefinition(kind, pin.definition as McpDefinitionOf[Kind], pinned);
  const name = keyOfMcpDefinition(kind, definition);
  const action = mode === 'refuse' ? 'refused' : mode === 'warn' ? 'warned' : 'accepted';
  return Object.freeze({
    ...(kind === 'tool' ? { name, localName } : { kind, name }),
    serverName,
    action,
    fields: diff.fields,
    details: diff.details,
    before: pin.definition,
    after: definition,
    previousSha256: pin.sha256,
    sha256,
  }) as unknown as McpChangeOf<Kind>;
}

/** The error that refuses a definition whose change waits for `adapter.acceptChanges`. */
export function toMcpChangeRefusal(change: MCPToolChange | MCPCatalogChange): ToolDefinitionError {
  const kind = kindOfMcpChange(change);
  const { pendingList, event, toArgument } = MCP_DEFINITION_KINDS[kind];
  const pinnedName = keyOfMcpDefinition(kind, change.before);
  const rebound =
    'localName' in change && pinnedName !== change.name
      ? ` (its local name '${change.localName}' was bound to the tool '${pinnedName}')`
      : '';
  return new ToolDefinitionError(
    `MCP ${toMcpDefinitionLabel(kind, change.name)} on server '${change.serverName}' changed its definition since it was pinned${rebound} ` +
      `(${change.fields.join(', ')}), so it is refused. Review the change (adapter.${pendingList} or the ` +
      `${event} event), then call adapter.acceptChanges([${toArgument(change.name)}]) to trust it. ` +
      `Changes: ${change.details.join('; ')}`,
    'localName' in change ? { toolName: change.localName } : {},
  );
}
