import type { MCPToolDefinition } from './mcp-tool-definition';
import type { MCPPinnedField } from './pin-mcp-tool-definition';

/** What the adapter does when a pinned tool's definition changes. */
export type MCPDefinitionChangeMode = 'refuse' | 'warn' | 'accept';

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
