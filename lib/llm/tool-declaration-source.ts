import { assertToolName } from '../tools/tool-name';
import type { BaseTool } from '../tools/base-tool';
import type { JsonSchema } from '../tools/json-schema';

/** The parts of a tool every declaration format needs. */
export interface ToolDeclarationSource {
  /** The tool's name, checked against `^[A-Za-z0-9_-]{1,64}$`. */
  name: string;
  /** The description, or undefined when the tool has none. */
  description: string | undefined;
  /** A copy of the canonical input schema (a closed empty object when the tool has none). */
  schema: JsonSchema;
}

/**
 * Reads what a declaration needs from a tool: a checked name, the description and a copy of the input schema.
 *
 * @throws ToolDefinitionError when the name is not 1–64 characters of `[A-Za-z0-9_-]`.
 */
export function readToolDeclarationSource(tool: BaseTool, target: string): ToolDeclarationSource {
  assertToolName(tool.name, `A tool exported for ${target}`);
  const schema: JsonSchema = tool.inputSchema
    ? (structuredClone(tool.inputSchema) as JsonSchema)
    : { type: 'object', properties: {}, required: [], additionalProperties: false };
  const description =
    typeof tool.description === 'string' && tool.description.trim() !== '' ? tool.description : undefined;
  return { name: tool.name, description, schema };
}
