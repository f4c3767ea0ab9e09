/// <reference types="node" preserve="true" />
// Entry point `protolink/tools/adapters`: tools from other worlds (MCP servers), built like native ones.
export { MCPToolAdapter } from './mcp/mcp-tool-adapter';
export type { MCPToolAdapterEvents } from './mcp/mcp-tool-adapter';
export type { MCPDefinitionChangeMode, MCPToolChange } from './mcp/mcp-tool-change';
export type {
  MCPCatalogDefinition,
  MCPCatalogKind,
  MCPPromptArgument,
  MCPPromptContent,
  MCPPromptInfo,
  MCPPromptMessage,
  MCPPromptResult,
  MCPResourceAnnotations,
  MCPResourceContents,
  MCPResourceInfo,
  MCPResourceReading,
  MCPResourceTemplateInfo,
} from './mcp/mcp-catalog-definition';
export type { MCPCatalogChange } from './mcp/mcp-catalog-change';
export type { MCPCatalogPin } from './mcp/pin-mcp-catalog-definition';
export type { MCPChangeSelector } from './mcp/accept-mcp-changes';
export type { MCPRequestOptions } from './mcp/mcp-catalog';
export type { MCPToolDefinition } from './mcp/mcp-tool-definition';
export type { MCPPinnedField, MCPToolPin } from './mcp/pin-mcp-tool-definition';
export type {
  MCPToolAdapterOptions,
  MCPToolPinData,
  MCPToolInfo,
  MCPTransportKind,
} from './mcp/mcp-adapter-options';
export type { McpConfigSummary } from './mcp/resolve-mcp-config';
export { toLocalToolName } from './mcp/map-mcp-tool-name';
export { toMcpServerCapability } from './mcp/to-mcp-server-capability';
export { serverStderrOf } from './mcp/attach-server-stderr';
export type { MCPAuth, MCPAuthOptions } from './mcp/auth/mcp-auth-options';
export type { MCPStoredAuth, MCPTokenStore } from './mcp/auth/mcp-token-store';
export { MemoryTokenStore } from './mcp/auth/memory-token-store';
export { FileTokenStore } from './mcp/auth/file-token-store';
export type { FileTokenStoreOptions } from './mcp/auth/file-token-store';
export { MCPSignInRequiredError } from '../../errors/mcp-sign-in-required-error';
export type { MCPSignInRequiredErrorOptions } from '../../errors/mcp-sign-in-required-error';
export type {
  MCPElicitationHandler,
  MCPSamplingHandler,
  MCPServerRequestContext,
} from './mcp/server-requests/mcp-server-request-handlers';
