import { ToolDefinitionError } from '../../errors/tool-definition-error';
import type { JsonSchema } from '../../tools/json-schema';

/** Where a lowering pass is, for error messages. */
export interface LoweringScope {
  /** The tool being exported. */
  toolName: string;
  /** The target, as named in messages (`OpenAI (strict)`, `Gemini`). */
  target: string;
  /** How to get past a failure (`export with { strict: false }`), appended to messages. */
  fallback?: string;
}

/**
 * Builds the error for a schema part that cannot be lowered: it names the tool, the target and the JSON
 * path (a JSON Pointer from the parameters root, e.g. `#/properties/trip/properties/start`).
 */
export function loweringError(
  scope: LoweringScope,
  path: string,
  problem: string,
  fix: string,
): ToolDefinitionError {
  const fallback = scope.fallback ? ` ${scope.fallback}` : '';
  return new ToolDefinitionError(
    `Tool '${scope.toolName}' cannot be exported for ${scope.target}: ${path} ${problem}. ${fix}${fallback}`,
    { toolName: scope.toolName },
  );
}

/** Joins a JSON Pointer path and one segment (escaped per RFC 6901). */
export function childPath(path: string, ...segments: (string | number)[]): string {
  return segments.reduce<string>(
    (result, segment) => `${result}/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`,
    path,
  );
}

/** Whether a value is a plain object (a schema node). */
export function isSchemaObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a schema node accepts `null` (type, nullable, enum, const or an anyOf/oneOf option). */
export function acceptsNull(schema: JsonSchema): boolean {
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  if (schema.nullable === true) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  if ('const' in schema && schema.const === null) return true;
  const options = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  return options.some((option) => isSchemaObject(option) && acceptsNull(option));
}

/**
 * Appends constraints a provider cannot take as keywords to a description, so the model still reads them;
 * local validation keeps enforcing them.
 */
export function describeConstraints(
  description: unknown,
  constraints: Record<string, unknown>,
): string | undefined {
  const entries = Object.entries(constraints);
  const base = typeof description === 'string' && description !== '' ? description : undefined;
  if (entries.length === 0) return base;
  const text = entries
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
  return base ? `${base} (${text})` : `(${text})`;
}

/** Resolves a local `$ref` (`#`, `#/$defs/X`, `#/definitions/X`) against the root, or returns undefined. */
export function resolveLocalRef(root: JsonSchema, reference: string): JsonSchema | undefined {
  if (reference === '#') return root;
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(reference);
  if (!match) return undefined;
  const name = decodeURIComponent(match[2]).replace(/~1/g, '/').replace(/~0/g, '~');
  const section = root[match[1]];
  if (!isSchemaObject(section)) return undefined;
  const target = (section as Record<string, unknown>)[name];
  return isSchemaObject(target) ? target : undefined;
}

/** Keywords that only annotate and can be dropped by every target. */
export const DROPPED_ANNOTATIONS: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  '$comment',
  '$anchor',
  'examples',
  'readOnly',
  'writeOnly',
  'deprecated',
  'contentMediaType',
  'contentEncoding',
]);

/** Whether a keyword is a vendor extension (`x-…`), dropped by every target. */
export function isExtensionKeyword(key: string): boolean {
  return key.startsWith('x-');
}

/** A DTO hint for a typeless array element (`@IsArray()` without an element decorator), or ''. */
export function typeHint(path: string): string {
  return path.endsWith('/items')
    ? ' In a DTO, type the elements: @IsString({ each: true }), or @ValidateNested({ each: true }) with @Type(() => Item).'
    : '';
}
