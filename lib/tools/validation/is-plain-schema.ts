import type { JsonSchema } from '../json-schema';

const PLAIN_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array']);
const PLAIN_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'title',
  'description',
  'examples',
  '$schema',
  '$comment',
]);

/**
 * Whether a schema only uses keywords on which the coercing walker and Ajv agree exactly, with nothing to
 * fill in (no `default`), no alternatives, references, formats or patterns. For such a schema, arguments
 * that Ajv accepts as they are need no coercion, so a checked deep copy plus Ajv gives the walker's result.
 */
export function isPlainSchema(schema: unknown, depth = 0): boolean {
  if (depth > 16 || typeof schema !== 'object' || schema === null || Array.isArray(schema)) return false;
  const node = schema as JsonSchema;
  if (typeof node.type !== 'string' || !PLAIN_TYPES.has(node.type)) return false;
  for (const key of Object.keys(node)) {
    if (!PLAIN_KEYWORDS.has(key)) return false;
  }
  if (node.additionalProperties !== undefined && typeof node.additionalProperties !== 'boolean') return false;
  if (node.properties !== undefined) {
    if (typeof node.properties !== 'object' || node.properties === null) return false;
    if (!Object.values(node.properties).every((property) => isPlainSchema(property, depth + 1))) return false;
  }
  if (node.items !== undefined && !isPlainSchema(node.items, depth + 1)) return false;
  return true;
}
