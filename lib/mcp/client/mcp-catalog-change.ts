import type { MCPCatalogDefinition, MCPCatalogKind } from './mcp-catalog-definition';

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
