import { ToolDefinitionError } from '../../errors/tool-definition-error';
import type { JsonSchema } from '../../tools/json-schema';
import { normalizeCapabilities } from '../../tools/tool-name';
import { assertUntrustedPatterns } from '../../tools/validation/assert-untrusted-patterns';
import { getCompiledValidator } from '../../tools/validation/compiled-validator';
import type { McpClassEntry } from './build-mcp-tool-class';
import { buildMcpNameMap } from './map-mcp-tool-name';
import type { MCPToolAdapterOptions } from './mcp-adapter-options';
import type { MCPToolDefinition } from './mcp-tool-definition';
import { readMcpToolDefinition } from './read-mcp-tool-definition';
import type { McpConfigSummary, ResolvedMcpConfig } from './resolve-mcp-config';
import { toMcpServerCapability } from './to-mcp-server-capability';

/** The usable tools of one `tools/list` answer, and the ones that could not be used. */
export interface McpListing {
  /**
   * Every definition the server sent that could be read (an object with a name and schemas within the size
   * and depth limits), in order, duplicates dropped; some of them may still be set aside in `problems`.
   */
  readonly definitions: readonly MCPToolDefinition[];
  /** The usable tools, by remote name. */
  readonly entries: ReadonlyMap<string, McpClassEntry>;
  /** Local name → remote name, for every usable tool. */
  readonly toRemote: ReadonlyMap<string, string>;
  /**
   * Remote name → why the tool cannot be used (bad schema, reserved or colliding local name, empty name);
   * `<name>#duplicate` for repeats, `#<position>` for entries without a usable name.
   */
  readonly problems: ReadonlyMap<string, ToolDefinitionError>;
}

/**
 * Checks the server's definitions one by one and prepares what the generated class needs: local names,
 * capabilities, metadata (`mcp`: the connection settings without secrets, shared by every tool of the
 * server; `remoteName`; `annotations`: the server's hints). A tool that cannot be used is set aside with a
 * {@link ToolDefinitionError} in `problems` and the others keep working: an entry that is not an object or
 * has no string name, a missing, non-object, oversized or too deeply nested schema, input that is not an
 * object, a pattern the linear-time engine for untrusted schemas refuses, a local name every JavaScript
 * object already has (`constructor`, `__proto__`, `toString`), or a local name another tool holds (the one
 * in `boundRemoteNames`, the remote names the adapter's pins bind, else the earlier one).
 */
export function buildMcpListing(
  wireTools: readonly unknown[],
  config: ResolvedMcpConfig,
  summary: McpConfigSummary,
  capabilities: MCPToolAdapterOptions['capabilities'],
  boundRemoteNames: ReadonlySet<string> = new Set(),
): McpListing {
  const definitions: MCPToolDefinition[] = [];
  const problems = new Map<string, ToolDefinitionError>();
  const seen = new Set<string>();
  const limits = { maxChars: config.maxSchemaChars, maxDepth: config.maxSchemaDepth };
  wireTools.forEach((wire, position) => {
    const reading = readMcpToolDefinition(wire, position, config.serverName, limits);
    if (!('definition' in reading)) {
      if (!problems.has(reading.key)) problems.set(reading.key, reading.problem);
      return;
    }
    const definition = reading.definition;
    const where = `MCP tool ${JSON.stringify(definition.name)} on server '${config.serverName}'`;
    if (seen.has(definition.name)) {
      problems.set(
        `${definition.name}#duplicate`,
        new ToolDefinitionError(`${where} is listed twice; only the first definition is used.`),
      );
      return;
    }
    seen.add(definition.name);
    definitions.push(definition);
    try {
      assertObjectInput(definition.inputSchema, where);
      assertUntrustedPatterns(definition.inputSchema, where);
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
  });
  const names = buildMcpNameMap(
    definitions.filter((definition) => !problems.has(definition.name)).map((definition) => definition.name),
    config.namePrefix,
    config.serverName,
    boundRemoteNames,
  );
  for (const [remote, problem] of names.problems) problems.set(remote, problem);
  const entries = new Map<string, McpClassEntry>();
  for (const definition of definitions) {
    const localName = names.toLocal.get(definition.name);
    if (localName === undefined || problems.has(definition.name)) continue;
    let declared: readonly string[];
    try {
      declared = resolveCapabilities(capabilities, definition);
    } catch (error) {
      // A list given for every tool is the application's configuration: fail the listing. A callback that
      // chokes on one definition sets that tool aside.
      if (typeof capabilities !== 'function') throw error;
      problems.set(
        definition.name,
        new ToolDefinitionError(
          `MCP tool ${JSON.stringify(definition.name)} on server '${config.serverName}': the capabilities callback failed for it: ${(error as Error).message}`,
          { cause: error, toolName: definition.name },
        ),
      );
      continue;
    }
    entries.set(definition.name, {
      definition,
      localName,
      // Every MCP tool also carries `mcp.<server>`, so `mcp.*` and `*` rules always cover it.
      capabilities: [...new Set([...declared, toMcpServerCapability(config.serverName)])],
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

/**
 * Tool arguments are always one JSON object: a schema typed as anything else would refuse every call.
 *
 * @throws ToolDefinitionError naming the tool and the type it declares.
 */
function assertObjectInput(schema: JsonSchema, where: string): void {
  const type = schema.type;
  if (type === undefined || type === 'object') return;
  if (Array.isArray(type) && type.includes('object')) return;
  throw new ToolDefinitionError(
    `${where} has an input schema of type ${JSON.stringify(type)}; tool arguments are one JSON object, so the server must declare type "object".`,
  );
}

function resolveCapabilities(
  option: MCPToolAdapterOptions['capabilities'],
  definition: MCPToolDefinition,
): readonly string[] {
  if (option === undefined || option === null) return [];
  if (typeof option === 'function') return normalizeCapabilities(option(definition));
  return normalizeCapabilities(option);
}
