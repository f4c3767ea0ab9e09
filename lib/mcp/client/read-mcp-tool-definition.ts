import { ToolDefinitionError } from '../../errors/tool-definition-error';
import type { JsonSchema } from '../../tools/json-schema';
import type { TaskSupport } from '../../tools/task-support';
import { isPlainRecord } from '../../tools/validation/copy-json-value';
import { assertRemoteSchema } from './assert-remote-schema';
import type { RemoteSchemaLimits } from './assert-remote-schema';
import type { MCPToolDefinition } from './mcp-tool-definition';
import { isNestedDeeper } from './is-nested-deeper';
import { describeUnkeyedEntry } from './mcp-definition-kind';

/** One entry of a `tools/list` answer, read: its definition, or why it cannot be read (keyed for `problems`). */
export type McpToolReading =
  | { readonly definition: MCPToolDefinition }
  | { readonly key: string; readonly problem: ToolDefinitionError };

/**
 * Reads one raw entry of a `tools/list` answer (as the server sent it, unchecked) into a frozen definition:
 * a JSON object with a non-empty string name, an object input schema and, when present, an object output
 * schema, both within `limits` (so nothing later walks or serializes a schema nested thousands of levels),
 * and annotations as deep as a schema may be. A non-string description becomes `''`, non-object
 * annotations `{}`. Entries that fail are keyed by name, or `#<position>` when they have no usable name.
 */
export function readMcpToolDefinition(
  wire: unknown,
  position: number,
  serverName: string,
  limits: RemoteSchemaLimits,
): McpToolReading {
  // Not folded with readMcpCatalogEntry (see there): only the naming of an entry without a name is shared.
  const unnamed = (what: string): McpToolReading => ({
    key: `#${position}`,
    problem: new ToolDefinitionError(
      `${describeUnkeyedEntry('tool', position, serverName)} ${what}; it is set aside.`,
    ),
  });
  if (!isPlainRecord(wire)) return unnamed('is not a JSON object');
  const name = wire.name;
  if (typeof name !== 'string') return unnamed(`has a name that is not a string (${describe(name)})`);
  if (name === '') {
    return {
      key: '',
      problem: new ToolDefinitionError(
        `A tool on MCP server '${serverName}' has an empty name; it cannot be exported.`,
      ),
    };
  }
  const where = `MCP tool ${JSON.stringify(name)} on server '${serverName}'`;
  try {
    if (wire.inputSchema === undefined) throw new ToolDefinitionError(`${where} has no input schema.`);
    assertRemoteSchema(wire.inputSchema, limits, where);
    if (wire.outputSchema !== undefined) assertRemoteSchema(wire.outputSchema, limits, where, 'output');
    if (isPlainRecord(wire.annotations) && isNestedDeeper(wire.annotations, limits.maxDepth))
      throw new ToolDefinitionError(`${where} has annotations nested deeper than ${limits.maxDepth} levels.`);
  } catch (error) {
    return {
      key: name,
      problem: new ToolDefinitionError((error as Error).message, { cause: error, toolName: name }),
    };
  }
  const definition: Record<string, unknown> = {
    name,
    description: typeof wire.description === 'string' ? wire.description : '',
    inputSchema: wire.inputSchema as JsonSchema,
    annotations: Object.freeze(isPlainRecord(wire.annotations) ? { ...wire.annotations } : {}),
  };
  if (typeof wire.title === 'string') definition.title = wire.title;
  const taskSupport = readRemoteTaskSupport(wire.execution);
  if (taskSupport !== 'forbidden') definition.taskSupport = taskSupport;
  if (wire.outputSchema !== undefined) definition.outputSchema = wire.outputSchema as JsonSchema;
  return { definition: Object.freeze(definition) as unknown as MCPToolDefinition };
}

function readRemoteTaskSupport(execution: unknown): TaskSupport {
  const support = isPlainRecord(execution) ? execution.taskSupport : undefined;
  return support === 'optional' || support === 'required' ? support : 'forbidden';
}

function describe(value: unknown): string {
  if (value === undefined) return 'none';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = String(value);
  return `${typeof value} ${text.length > 40 ? `${text.slice(0, 40)}…` : text}`;
}
