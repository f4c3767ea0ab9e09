// Entry point `protolink/tools/adapters`: tools from other worlds (MCP servers), built like native ones.
export { MCPToolAdapter } from './mcp/mcp-tool-adapter';
export type { MCPToolAdapterEvents } from './mcp/mcp-tool-adapter';
export type { MCPDefinitionChangeMode, MCPToolChange } from './mcp/mcp-definition-pins';
export type { MCPPinnedField, MCPToolPin } from './mcp/pin-mcp-tool-definition';
export type {
  MCPToolAdapterOptions,
  MCPToolDefinition,
  MCPToolInfo,
  MCPTransportKind,
} from './mcp/mcp-adapter-options';
export type { McpConfigSummary } from './mcp/resolve-mcp-config';
export { toLocalToolName } from './mcp/map-mcp-tool-name';
export { toMcpServerCapability } from './mcp/to-mcp-server-capability';
export { serverStderrOf } from './mcp/attach-server-stderr';
