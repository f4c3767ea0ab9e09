import type { JsonSchema } from '../tools/json-schema';
import { collectTools } from './collect-tools';
import type { ToolSource } from './collect-tools';
import { loadJsonSchemaLowering, loadOpenAIStrictLowering } from './schema/load-schema-lowering';
import { readToolDeclarationSource } from './tool-declaration-source';

/** Options of {@link toOpenAITools}. */
export interface ToOpenAIToolsOptions {
  /** Structured outputs for tool arguments (default true): closed objects, every key required, optional → nullable. */
  strict?: boolean;
  /** The API the declarations are for: Chat Completions (default) or Responses. */
  api?: 'chat' | 'responses';
}

/** A Chat Completions function tool (`tools[]` of `POST /v1/chat/completions`). */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters: JsonSchema; strict: boolean };
}

/** A Responses API function tool (`tools[]` of `POST /v1/responses`). */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: JsonSchema;
  strict: boolean;
}

/**
 * Exports tools as OpenAI function declarations. In strict mode (the default) every object is closed, every
 * property required and optional ones nullable, `oneOf` becomes `anyOf`, and keywords strict mode does not
 * take are moved into descriptions; `validateToolArgs` turns the model's `null`s back into "absent".
 *
 * @throws ToolDefinitionError naming the tool and the JSON path of a schema part that cannot be lowered, or a
 * name outside `^[A-Za-z0-9_-]{1,64}$`.
 */
export function toOpenAITools(
  tools: ToolSource,
  options: ToOpenAIToolsOptions & { api: 'responses' },
): OpenAIResponsesTool[];
export function toOpenAITools(
  tools: ToolSource,
  options?: ToOpenAIToolsOptions & { api?: 'chat' },
): OpenAIChatTool[];
export function toOpenAITools(
  tools: ToolSource,
  options?: ToOpenAIToolsOptions,
): OpenAIChatTool[] | OpenAIResponsesTool[];
export function toOpenAITools(
  tools: ToolSource,
  options: ToOpenAIToolsOptions = {},
): OpenAIChatTool[] | OpenAIResponsesTool[] {
  const strict = options.strict ?? true;
  const target = strict ? 'OpenAI (strict)' : 'OpenAI';
  const declarations = collectTools(tools).map((tool) => {
    const source = readToolDeclarationSource(tool, target);
    const scope = {
      toolName: source.name,
      target,
      fallback: strict ? 'Or export with { strict: false }.' : undefined,
    };
    const parameters = strict
      ? loadOpenAIStrictLowering().lowerOpenAIStrictSchema(source.schema, scope)
      : loadJsonSchemaLowering().lowerJsonSchema(source.schema, scope);
    return { name: source.name, description: source.description, parameters };
  });
  if (options.api === 'responses') {
    return declarations.map(({ name, description, parameters }) => ({
      type: 'function' as const,
      name,
      ...(description === undefined ? {} : { description }),
      parameters,
      strict,
    }));
  }
  return declarations.map(({ name, description, parameters }) => ({
    type: 'function' as const,
    function: { name, ...(description === undefined ? {} : { description }), parameters, strict },
  }));
}
