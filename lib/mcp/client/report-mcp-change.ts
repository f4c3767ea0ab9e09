import type { TelemetryEmitter } from '../../runtime/telemetry-emitter';
import { kindOfMcpChange } from './mcp-definition-change';
import type { MCPCatalogChange, MCPToolChange } from './mcp-definition-change';
import { MCP_DEFINITION_KINDS, toMcpDefinitionLabel } from './mcp-definition-kind';

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
  const kind = kindOfMcpChange(change);
  const { event, warningCode } = MCP_DEFINITION_KINDS[kind];
  if (change.action === 'warned') {
    process.emitWarning(
      `MCP ${toMcpDefinitionLabel(kind, change.name)} on server '${change.serverName}' changed its definition (${change.fields.join(', ')}); the new definition is used. ${change.details.join('; ')}`,
      { code: warningCode },
    );
  }
  events.emit(event, change as never);
}
