import type { Tool as McpTool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { BaseTool } from '../../tools/base-tool';
import type { JsonSchema } from '../../tools/json-schema';
import { WRAPPED_RESULT_KEY } from './to-call-tool-result';

const ANNOTATION_KEYS = [
  'title',
  'readOnlyHint',
  'destructiveHint',
  'idempotentHint',
  'openWorldHint',
] as const;

/**
 * Returns the MCP `tools/list` entry of a tool: name, description, input schema (always an object schema),
 * output schema when the tool declares an object result (or a number, integer, boolean or array one, as
 * `{ result: <schema> }`, the shape `toCallToolResult` sends such values in), and annotations from the
 * tool's metadata (an MCP tool's own hints) or its `read-only` tag.
 */
export function toMcpTool(tool: BaseTool): McpTool {
  const definition: McpTool = {
    name: tool.name,
    description: tool.description,
    inputSchema: toInputSchema(declaredInputSchema(tool) ?? tool.inputSchema),
  };
  const outputSchema = toOutputSchema(tool.outputSchema);
  if (outputSchema) definition.outputSchema = outputSchema;
  const annotations = toAnnotations(tool);
  if (annotations) definition.annotations = annotations;
  const taskSupport = readToolTaskSupport(tool);
  if (taskSupport !== 'forbidden') definition.execution = { taskSupport };
  return definition;
}

/** Returns whether the tool advertises an output schema (its results then carry `structuredContent`). */
export function hasObjectOutputSchema(tool: BaseTool): boolean {
  return toOutputSchema(tool.outputSchema) !== undefined;
}

function toInputSchema(schema: JsonSchema | null): McpTool['inputSchema'] {
  if (!schema || typeof schema !== 'object') return { type: 'object' };
  if (schema.type === 'object') return schema as McpTool['inputSchema'];
  return { ...schema, type: 'object' } as McpTool['inputSchema'];
}

const WRAPPED_TYPES: ReadonlySet<unknown> = new Set(['number', 'integer', 'boolean', 'array']);

function toOutputSchema(schema: JsonSchema | null): McpTool['outputSchema'] | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  if (schema.type === 'object') return schema as McpTool['outputSchema'];
  // MCP only allows object output schemas: such values are sent wrapped, so the schema is too. A string or
  // permissive schema is not advertised (strings are sent as plain text, without structured content).
  if (!WRAPPED_TYPES.has(schema.type)) return undefined;
  // Definitions stay at the root, where the `#/$defs/…` references of the wrapped schema point.
  const { $defs, definitions, $schema, ...wrapped } = schema as Record<string, unknown>;
  return {
    ...(typeof $schema === 'string' ? { $schema } : {}),
    type: 'object',
    properties: { [WRAPPED_RESULT_KEY]: wrapped },
    required: [WRAPPED_RESULT_KEY],
    ...($defs !== undefined ? { $defs } : {}),
    ...(definitions !== undefined ? { definitions } : {}),
  } as McpTool['outputSchema'];
}

function toAnnotations(tool: BaseTool): ToolAnnotations | undefined {
  const annotations: Record<string, unknown> = {};
  const metadata = (tool as { metadata?: unknown }).metadata;
  const declared = isRecord(metadata) ? metadata.annotations : undefined;
  if (isRecord(declared)) {
    for (const key of ANNOTATION_KEYS) {
      const value = declared[key];
      if ((key === 'title' && typeof value === 'string') || (key !== 'title' && typeof value === 'boolean')) {
        annotations[key] = value;
      }
    }
  }
  if (annotations.readOnlyHint === undefined && tool.tags?.includes('read-only'))
    annotations.readOnlyHint = true;
  return Object.keys(annotations).length ? (annotations as ToolAnnotations) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A NativeTool's schema as its author wrote it (advertised unchanged), when it was a JSON Schema object. */
function declaredInputSchema(tool: BaseTool): JsonSchema | null {
  const declared = (tool as { declaredInputSchema?: unknown }).declaredInputSchema;
  return typeof declared === 'object' && declared !== null ? (declared as JsonSchema) : null;
}

/** A tool's `taskSupport` (NativeTool and compatible tools); `forbidden` for any other tool. */
export function readToolTaskSupport(tool: BaseTool): 'forbidden' | 'optional' | 'required' {
  const support = (tool as { taskSupport?: unknown }).taskSupport;
  return support === 'optional' || support === 'required' ? support : 'forbidden';
}
