import type { JsonSchemaDefinition } from '@openai/agents';
import { ToolDefinitionError } from '../errors/tool-definition-error';
import { lowerJsonSchema } from '../llm/schema/lower-json-schema';
import { lowerOpenAIStrictSchema } from '../llm/schema/lower-openai-strict-schema';
import type { ToolDeclarationSource } from '../llm/tool-declaration-source';

/** The SDK's object schema types, strict and non-strict (it exports them only inside `JsonSchemaDefinition`). */
type StrictSchema = Extract<JsonSchemaDefinition['schema'], { additionalProperties: false }>;
type NonStrictSchema = Extract<JsonSchemaDefinition['schema'], { additionalProperties: true }>;

/** The parameters of a FunctionTool: a strict schema, or a non-strict one with the reason it is not strict. */
export type FunctionToolParameters =
  | { readonly strict: true; readonly schema: StrictSchema }
  | { readonly strict: false; readonly schema: NonStrictSchema; readonly reason?: string };

/**
 * Lowers a tool's schema for the OpenAI Agents SDK: strict when asked and possible, otherwise the broad
 * lowering, with the reason strict mode was not possible.
 *
 * @throws ToolDefinitionError when not even the broad lowering works (the root is not an object).
 */
export function toFunctionToolParameters(
  source: ToolDeclarationSource,
  options: { strict: boolean; reason?: string },
): FunctionToolParameters {
  if (options.strict) {
    try {
      const schema = lowerOpenAIStrictSchema(source.schema, {
        toolName: source.name,
        target: 'the OpenAI Agents SDK (strict)',
      });
      // Same shape as the SDK's strict type; it names only the keywords it checks statically.
      return { strict: true, schema: schema as unknown as StrictSchema };
    } catch (error) {
      if (!(error instanceof ToolDefinitionError)) throw error;
      return toFunctionToolParameters(source, { strict: false, reason: error.message });
    }
  }
  const schema = lowerJsonSchema(source.schema, { toolName: source.name, target: 'the OpenAI Agents SDK' });
  // The SDK's non-strict type asks for `additionalProperties: true`; the schema is sent to the model as is.
  return {
    strict: false,
    schema: schema as unknown as NonStrictSchema,
    ...(options.reason === undefined ? {} : { reason: options.reason }),
  };
}
