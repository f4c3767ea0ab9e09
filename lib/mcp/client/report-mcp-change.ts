import type { TelemetryEmitter } from '../../runtime/telemetry-emitter';
import type { MCPCatalogChange } from './mcp-catalog-change';
import { CATALOG_NOUNS, quoteKey } from './read-mcp-catalog-entry';
import type { MCPToolChange } from './mcp-tool-change';

/** The events of an {@link MCPToolAdapter}. */
export interface MCPToolAdapterEvents {
  /** A pinned tool's definition changed (see `onDefinitionChange`). */
  toolChanged: MCPToolChange;
  /** A pinned resource's or resource template's definition changed. */
  resourceChanged: MCPCatalogChange;
  /** A pinned prompt's definition changed. */
  promptChanged: MCPCatalogChange;
}

/**
 * Tells the adapter's listeners about a definition change and, in `warn` mode, writes a process warning
 * (`PROTOLINK_MCP_TOOL_CHANGED`, `PROTOLINK_MCP_RESOURCE_CHANGED` or `PROTOLINK_MCP_PROMPT_CHANGED`).
 */
export function reportMcpChange(
  events: TelemetryEmitter<MCPToolAdapterEvents>,
  change: MCPToolChange | MCPCatalogChange,
): void {
  const kind = 'kind' in change ? change.kind : 'tool';
  const event = kind === 'tool' ? 'toolChanged' : kind === 'prompt' ? 'promptChanged' : 'resourceChanged';
  if (change.action === 'warned') {
    const subject =
      kind === 'tool' ? `MCP tool '${change.name}'` : `MCP ${CATALOG_NOUNS[kind]} ${quoteKey(change.name)}`;
    process.emitWarning(
      `${subject} on server '${change.serverName}' changed its definition (${change.fields.join(', ')}); the new definition is used. ${change.details.join('; ')}`,
      {
        code: `PROTOLINK_MCP_${event === 'toolChanged' ? 'TOOL' : event === 'promptChanged' ? 'PROMPT' : 'RESOURCE'}_CHANGED`,
      },
    );
  }
  events.emit(event, change as never);
}
