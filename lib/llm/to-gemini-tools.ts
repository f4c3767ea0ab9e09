import type { JsonSchema } from '../tools/json-schema';
import { collectTools } from './collect-tools';
import type { ToolSource } from './collect-tools';
import { lowerGeminiSchema } from './schema/lower-gemini-schema';
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

/**
 * Exports tools as Gemini function declarations (one `{ functionDeclarations }` entry, or none for no tools):
 * the OpenAPI 3.0 subset with `$ref`s inlined, `nullable` instead of type arrays, `enum` instead of `const`,
 * string enums, and no `additionalProperties`. A tool without arguments gets no `parameters`.
 *
 * @throws ToolDefinitionError naming the tool and the JSON path of a schema part Gemini cannot express (a
 * recursive DTO, an open map, a tuple), or a name outside `^[A-Za-z0-9_-]{1,64}$`.
 */
export function toGeminiTools(tools: ToolSource): GeminiTool[] {
  const functionDeclarations = collectTools(tools).map((tool): GeminiFunctionDeclaration => {
    const source = readToolDeclarationSource(tool, 'Gemini');
    const parameters = lowerGeminiSchema(source.schema, { toolName: source.name, target: 'Gemini' });
    const declaration: GeminiFunctionDeclaration = { name: source.name };
    if (source.description !== undefined) declaration.description = source.description;
    if (Object.keys(parameters.properties ?? {}).length > 0) declaration.parameters = parameters;
    return declaration;
  });
  return functionDeclarations.length === 0 ? [] : [{ functionDeclarations }];
}
