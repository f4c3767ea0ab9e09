import type { Tool as McpToolWire } from '@modelcontextprotocol/sdk/types.js';
import { ToolDefinitionError } from '../../../errors/tool-definition-error';
import type { JsonSchema } from '../../json-schema';
import { normalizeCapabilities } from '../../tool-name';
import { getCompiledValidator } from '../../validation/compiled-validator';
import { assertRemoteSchema } from './assert-remote-schema';
import type { McpClassEntry } from './build-mcp-tool-class';
import { buildMcpNameMap } from './map-mcp-tool-name';
import type { MCPToolAdapterOptions, MCPToolDefinition } from './mcp-adapter-options';
import type { McpConfigSummary, ResolvedMcpConfig } from './resolve-mcp-config';
import { toMcpServerCapability } from './to-mcp-server-capability';

/** The usable tools of one `tools/list` answer, and the ones that could not be used. */
export interface McpListing {
  /** Every definition the server sent, in order (duplicates dropped). */
  readonly definitions: readonly MCPToolDefinition[];
  /** The usable tools, by remote name. */
  readonly entries: ReadonlyMap<string, McpClassEntry>;
  /** Local name → remote name, for every usable tool. */
  readonly toRemote: ReadonlyMap<string, string>;
  /** Remote name → why the tool cannot be used (bad schema, empty name); `<name>#duplicate` for repeats. */
  readonly problems: ReadonlyMap<string, ToolDefinitionError>;
}

/**
 * Checks the server's definitions and prepares what the generated class needs: local names, capabilities,
 * metadata (`mcp`: the connection settings without secrets, shared by every tool of the server; `remoteName`;
 * `annotations`: the server's hints). A tool with an unusable definition is
 * set aside with a {@link ToolDefinitionError}; the others keep working.
 *
 * @throws ToolDefinitionError when two remote names map to the same local name.
 */
export function buildMcpListing(
  wireTools: readonly McpToolWire[],
  config: ResolvedMcpConfig,
  summary: McpConfigSummary,
  capabilities: MCPToolAdapterOptions['capabilities'],
): McpListing {
  const definitions: MCPToolDefinition[] = [];
  const problems = new Map<string, ToolDefinitionError>();
  const seen = new Set<string>();
  for (const wire of wireTools) {
    const definition = toDefinition(wire);
    const where = `MCP tool ${JSON.stringify(definition.name)} on server '${config.serverName}'`;
    if (definition.name === '') {
      problems.set(
        '',
        new ToolDefinitionError(
          `A tool on MCP server '${config.serverName}' has an empty name; it cannot be exported.`,
        ),
      );
      continue;
    }
    if (seen.has(definition.name)) {
      problems.set(
        `${definition.name}#duplicate`,
        new ToolDefinitionError(`${where} is listed twice; only the first definition is used.`),
      );
      continue;
    }
    seen.add(definition.name);
    definitions.push(definition);
    try {
      assertRemoteSchema(
        definition.inputSchema,
        { maxChars: config.maxSchemaChars, maxDepth: config.maxSchemaDepth },
        where,
      );
      const probe = structuredClone(definition.inputSchema);
      getCompiledValidator(probe, true).ajv();
    } catch (error) {
      const message =
        error instanceof ToolDefinitionError && error.message.startsWith(where)
          ? error.message
          : `${where} has an input schema that cannot be used: ${(error as Error).message}`;
      problems.set(
        definition.name,
        new ToolDefinitionError(message, { cause: error, toolName: definition.name }),
      );
    }
  }
  const usable = definitions.filter((definition) => !problems.has(definition.name));
  const names = buildMcpNameMap(
    usable.map((definition) => definition.name),
    config.namePrefix,
    config.serverName,
  );
  const entries = new Map<string, McpClassEntry>();
  for (const definition of usable) {
    const localName = names.toLocal.get(definition.name) as string;
    entries.set(definition.name, {
      definition,
      localName,
      // Every MCP tool also carries `mcp.<server>`, so `mcp.*` and `*` rules always cover it.
      capabilities: [
        ...new Set([
          ...resolveCapabilities(capabilities, definition),
          toMcpServerCapability(config.serverName),
        ]),
      ],
      metadata: {
        mcp: summary,
        remoteName: definition.name,
        ...(definition.title ? { title: definition.title } : {}),
        annotations: definition.annotations,
      },
    });
  }
  return { definitions, entries, toRemote: names.toRemote, problems };
}

function toDefinition(wire: McpToolWire): MCPToolDefinition {
  const definition: Record<string, unknown> = {
    name: typeof wire.name === 'string' ? wire.name : '',
    description: typeof wire.description === 'string' ? wire.description : '',
    inputSchema: (wire.inputSchema as JsonSchema | undefined) ?? {},
    annotations: Object.freeze({ ...(wire.annotations ?? {}) }),
  };
  if (typeof wire.title === 'string') definition.title = wire.title;
  if (wire.outputSchema) definition.outputSchema = wire.outputSchema as JsonSchema;
  return Object.freeze(definition) as unknown as MCPToolDefinition;
}

function resolveCapabilities(
  option: MCPToolAdapterOptions['capabilities'],
  definition: MCPToolDefinition,
): readonly string[] {
  if (option === undefined || option === null) return [];
  if (typeof option === 'function') return normalizeCapabilities(option(definition));
  return normalizeCapabilities(option);
}
