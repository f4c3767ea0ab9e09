import type {
  MCPCatalogKind,
  MCPPromptInfo,
  MCPResourceInfo,
  MCPResourceTemplateInfo,
} from './mcp-catalog-definition';
import type { MCPToolDefinition } from './mcp-tool-definition';

/** What a definition is: a tool, or one of a server's other offerings (a resource, a template, a prompt). */
export type McpDefinitionKind = 'tool' | MCPCatalogKind;

/** The definition type of each kind. */
export interface McpDefinitionOf {
  tool: MCPToolDefinition;
  resource: MCPResourceInfo;
  resourceTemplate: MCPResourceTemplateInfo;
  prompt: MCPPromptInfo;
}

/** How messages, events and warnings speak of one kind of definition. */
export interface McpDefinitionKindWords {
  /** The kind in messages: `tool`, `resource template`… */
  readonly noun: string;
  /** The field that names a definition: the key of its pin, and what `acceptChanges` takes. */
  readonly keyField: 'name' | 'uri' | 'uriTemplate';
  /** A key as messages quote it. */
  readonly quote: (key: string) => string;
  /** A key as an `adapter.acceptChanges([…])` argument in a message. */
  readonly toArgument: (key: string) => string;
  /** The adapter event that reports a change of this kind. */
  readonly event: 'toolChanged' | 'resourceChanged' | 'promptChanged';
  /** The adapter property that lists this kind's pending changes. */
  readonly pendingList: 'pendingChanges' | 'pendingCatalogChanges';
  /** The code of the process warning of a change in `warn` mode. */
  readonly warningCode: string;
}

// Tool names are quoted as they were before resources and prompts were pinned; the others, which a server
// may make long, are JSON-quoted and cut.
const quoteToolName = (name: string): string => `'${name}'`;

/** The words of each kind. */
export const MCP_DEFINITION_KINDS: Readonly<Record<McpDefinitionKind, McpDefinitionKindWords>> =
  Object.freeze({
    tool: {
      noun: 'tool',
      keyField: 'name',
      quote: quoteToolName,
      toArgument: quoteToolName,
      event: 'toolChanged',
      pendingList: 'pendingChanges',
      warningCode: 'PROTOLINK_MCP_TOOL_CHANGED',
    },
    resource: {
      noun: 'resource',
      keyField: 'uri',
      quote: quoteKey,
      toArgument: (key) => JSON.stringify(key),
      event: 'resourceChanged',
      pendingList: 'pendingCatalogChanges',
      warningCode: 'PROTOLINK_MCP_RESOURCE_CHANGED',
    },
    resourceTemplate: {
      noun: 'resource template',
      keyField: 'uriTemplate',
      quote: quoteKey,
      toArgument: (key) => JSON.stringify(key),
      event: 'resourceChanged',
      pendingList: 'pendingCatalogChanges',
      warningCode: 'PROTOLINK_MCP_RESOURCE_CHANGED',
    },
    prompt: {
      noun: 'prompt',
      keyField: 'name',
      quote: quoteKey,
      toArgument: (key) => JSON.stringify(key),
      event: 'promptChanged',
      pendingList: 'pendingCatalogChanges',
      warningCode: 'PROTOLINK_MCP_PROMPT_CHANGED',
    },
  });

/** A definition as messages name it: its kind and its quoted key (`tool 'search'`, `prompt "review"`). */
export function toMcpDefinitionLabel(kind: McpDefinitionKind, key: string): string {
  const words = MCP_DEFINITION_KINDS[kind];
  return `${words.noun} ${words.quote(key)}`;
}

/** An entry of a listing that has no usable key, as messages name it: by its position. */
export function describeUnkeyedEntry(kind: McpDefinitionKind, position: number, serverName: string): string {
  return `The ${MCP_DEFINITION_KINDS[kind].noun} at position ${position} of the listing of MCP server '${serverName}'`;
}

/** The key of a definition: its name (tools, prompts), URI (resources) or URI template (templates). */
export function keyOfMcpDefinition<Kind extends McpDefinitionKind>(
  kind: Kind,
  definition: McpDefinitionOf[Kind],
): string {
  return (definition as unknown as Record<string, string>)[MCP_DEFINITION_KINDS[kind].keyField];
}

/** A key for messages: JSON-quoted, and cut when long (the server chose it). */
export function quoteKey(key: string): string {
  return JSON.stringify(key.length > 200 ? `${key.slice(0, 200)}…` : key);
}
