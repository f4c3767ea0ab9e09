import type { JsonSchema } from '../tools/json-schema';
import { collectTools } from './collect-tools';
import type { ToolSource } from './collect-tools';
import { loadJsonSchemaLowering } from './schema/load-schema-lowering';
import { readToolDeclarationSource } from './tool-declaration-source';

/** The input schema of an Anthropic tool: always one object (`type` is the literal `'object'`). */
export type AnthropicInputSchema = JsonSchema & { type: 'object' };

/**
 * An Anthropic Messages API client tool (`tools[]` of `POST /v1/messages`); assignable to
 * `@anthropic-ai/sdk`'s `Messages.Tool`.
 */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: AnthropicInputSchema;
}

/**
 * Exports tools as Anthropic tool definitions: the JSON Schema root is one object, `oneOf` becomes `anyOf`,
 * optional properties stay optional. Anthropic does not enforce the schema, so arguments are validated
 * locally by `validateToolArgs`.
 *
 * @throws ToolDefinitionError naming the tool when its schema root is not an object, or its name is outside
 * `^[A-Za-z0-9_-]{1,64}$`.
 */
export function toAnthropicTools(tools: ToolSource): AnthropicTool[] {
  return collectTools(tools).map((tool) => {
    const source = readToolDeclarationSource(tool, 'Anthropic');
    const input_schema = loadJsonSchemaLowering().lowerJsonSchema(source.schema, {
      toolName: source.name,
      target: 'Anthropic',
    });
    return {
      name: source.name,
      ...(source.description === undefined ? {} : { description: source.description }),
      input_schema,
    };
  });
}
