/// <reference types="node" preserve="true" />
// Entry point `protolink/tools/adapters`: tools from other worlds (MCP servers), built like native ones.
export { MCPToolAdapter } from './mcp-tool-adapter';
export type { MCPToolAdapterEvents } from './mcp-tool-adapter';
export type { MCPDefinitionChangeMode, MCPToolChange } from './mcp-definition-change';
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
} from './mcp-catalog-definition';
export type { MCPCatalogChange } from './mcp-definition-change';
export type { MCPCatalogPin } from './pin-mcp-definition';
export type { MCPChangeSelector } from './accept-mcp-changes';
export type { MCPRequestOptions } from './mcp-catalog';
export type { MCPToolDefinition } from './mcp-tool-definition';
export type { MCPPinnedField, MCPToolPin } from './pin-mcp-definition';
export type {
  MCPToolAdapterOptions,
  MCPToolPinData,
  MCPToolInfo,
  MCPTransportKind,
} from './mcp-adapter-options';
export type { McpConfigSummary } from './resolve-mcp-config';
export { toLocalToolName } from './map-mcp-tool-name';
export { toMcpServerCapability } from './to-mcp-server-capability';
export { serverStderrOf } from './attach-server-stderr';
export type { MCPAuth, MCPAuthOptions } from './auth/mcp-auth-options';
export type { MCPStoredAuth, MCPTokenStore } from './auth/mcp-token-store';
export { MemoryTokenStore } from './auth/memory-token-store';
export { FileTokenStore } from './auth/file-token-store';
export type { FileTokenStoreOptions } from './auth/file-token-store';
export { MCPSignInRequiredError } from '../../errors/mcp-sign-in-required-error';
export type { MCPSignInRequiredErrorOptions } from '../../errors/mcp-sign-in-required-error';
export type {
  MCPElicitationHandler,
  MCPSamplingHandler,
  MCPServerRequestContext,
} from './server-requests/mcp-server-request-handlers';
