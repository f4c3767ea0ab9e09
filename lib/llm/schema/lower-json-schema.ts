import type { JsonSchema } from '../../tools/json-schema';
import { isSchemaObject } from './schema-lowering';
import type { LoweringScope } from './schema-lowering';
import { assertObjectRoot } from './assert-object-root';

/** A JSON Schema whose root is an object: `type` is the literal `'object'` and `properties` is present. */
export type ObjectJsonSchema = JsonSchema & { type: 'object'; properties: Record<string, JsonSchema> };

/**
 * Lowers a canonical tool schema for targets that take broad JSON Schema (Anthropic, OpenAI non-strict,
 * OpenAI-compatible servers): the root must be one object, `oneOf` becomes `anyOf` (validation still
 * enforces "exactly one" locally) and the root `$schema`/`$id` are dropped. Returns a new schema.
 *
 * @throws ToolDefinitionError naming the tool when the root is not an object schema.
 */
export function lowerJsonSchema(schema: JsonSchema, scope: LoweringScope): ObjectJsonSchema {
  assertObjectRoot(schema, scope, {
    unionFix: 'Tool arguments must be one object; wrap the union in a property.',
    allowUntypedRoot: true,
  });
  const { $schema: _dialect, $id: _id, ...rest } = replaceOneOf(schema) as JsonSchema;
  return { ...rest, type: 'object', properties: rest.properties ?? {} };
}

function replaceOneOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(replaceOneOf);
  if (!isSchemaObject(node)) return node;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples' || key === 'example') {
      result[key] = structuredClone(value);
    } else if (
      key === 'properties' ||
      key === '$defs' ||
      key === 'definitions' ||
      key === 'patternProperties'
    ) {
      result[key] = isSchemaObject(value)
        ? Object.fromEntries(Object.entries(value).map(([name, item]) => [name, replaceOneOf(item)]))
        : value;
    } else if (key === 'oneOf' && !('anyOf' in node)) {
      result.anyOf = replaceOneOf(value);
    } else {
      result[key] = replaceOneOf(value);
    }
  }
  return result;
}
