// Entry point `protolink/tools/adapters`: tools from other worlds (MCP servers), built like native ones.
export { MCPToolAdapter } from './mcp/mcp-tool-adapter';
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
