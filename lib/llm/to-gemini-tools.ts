import type { JsonSchema } from '../tools/json-schema';
import { collectTools } from './collect-tools';
import type { ToolSource } from './collect-tools';
import { loadGeminiLowering, loadJsonSchemaLowering } from './schema/load-schema-lowering';
import type { ObjectJsonSchema } from './schema/lower-json-schema';
import { readToolDeclarationSource } from './tool-declaration-source';

/** One Gemini function declaration. `parameters` is absent for a tool without arguments. */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: JsonSchema;
}

/** A Gemini tool entry (`tools[]` of `generateContent`). */
export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** One Gemini function declaration whose parameters are JSON Schema (`parametersJsonSchema`). */
export interface GeminiJsonSchemaFunctionDeclaration {
  name: string;
  description?: string;
  parametersJsonSchema: ObjectJsonSchema;
}

/** A Gemini tool entry with JSON Schema parameters; assignable to `@google/genai`'s `Tool`. */
export interface GeminiJsonSchemaTool {
  functionDeclarations: GeminiJsonSchemaFunctionDeclaration[];
}

/** Options of {@link toGeminiTools}. */
export interface ToGeminiToolsOptions {
  /**
   * Where the parameters go: `parameters` (default; Gemini's OpenAPI 3.0 subset, as the REST API has always
   * taken) or `parametersJsonSchema` (JSON Schema, `$ref`s and `anyOf` kept; the form `@google/genai`'s
   * types accept).
   */
  format?: 'parameters' | 'parametersJsonSchema';
}

/**
 * Exports tools as Gemini function declarations (one `{ functionDeclarations }` entry, or none for no tools).
 * By default the parameters are the OpenAPI 3.0 subset with `$ref`s inlined, `nullable` instead of type
 * arrays, `enum` instead of `const`, string enums, and no `additionalProperties`; a tool without arguments
 * gets no `parameters`. With `{ format: 'parametersJsonSchema' }` they are JSON Schema (one object at the
 * root, `oneOf` → `anyOf`).
 *
 * @throws ToolDefinitionError naming the tool and the JSON path of a schema part Gemini cannot express (a
 * recursive DTO, an open map, a tuple), or a name outside `^[A-Za-z0-9_-]{1,64}$`.
 */
export function toGeminiTools(
  tools: ToolSource,
  options: ToGeminiToolsOptions & { format: 'parametersJsonSchema' },
): GeminiJsonSchemaTool[];
export function toGeminiTools(
  tools: ToolSource,
  options?: ToGeminiToolsOptions & { format?: 'parameters' },
): GeminiTool[];
export function toGeminiTools(
  tools: ToolSource,
  options?: ToGeminiToolsOptions,
): GeminiTool[] | GeminiJsonSchemaTool[];
export function toGeminiTools(
  tools: ToolSource,
  options: ToGeminiToolsOptions = {},
): GeminiTool[] | GeminiJsonSchemaTool[] {
  const collected = collectTools(tools);
  if (collected.length === 0) return [];
  if (options.format === 'parametersJsonSchema') {
    const functionDeclarations = collected.map((tool): GeminiJsonSchemaFunctionDeclaration => {
      const source = readToolDeclarationSource(tool, 'Gemini');
      const parametersJsonSchema = loadJsonSchemaLowering().lowerJsonSchema(source.schema, {
        toolName: source.name,
        target: 'Gemini',
      });
      return {
        name: source.name,
        ...(source.description === undefined ? {} : { description: source.description }),
        parametersJsonSchema,
      };
    });
    return [{ functionDeclarations }];
  }
  const functionDeclarations = collected.map((tool): GeminiFunctionDeclaration => {
    const source = readToolDeclarationSource(tool, 'Gemini');
    const parameters = loadGeminiLowering().lowerGeminiSchema(source.schema, {
      toolName: source.name,
      target: 'Gemini',
    });
    const declaration: GeminiFunctionDeclaration = { name: source.name };
    if (source.description !== undefined) declaration.description = source.description;
    if (Object.keys(parameters.properties ?? {}).length > 0) declaration.parameters = parameters;
    return declaration;
  });
  return [{ functionDeclarations }];
}
