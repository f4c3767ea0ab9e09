import { ToolDefinitionError } from '../../errors/tool-definition-error';
import type { JsonSchema } from '../json-schema';
import { classToJsonSchema } from './class-to-json-schema';
import { copySchemaData } from './copy-schema-data';
import { isDtoClass } from './dto-model';
import { inlineLocalRefs } from './inline-local-refs';
import { setOwn } from '../validation/copy-json-value';
import { isJsonSchemaLike, legacyFieldMapToSchema } from './legacy-field-map';

/** What {@link normalizeSchema} accepts. */
export type SchemaSource = JsonSchema | Function | Record<string, unknown> | null | undefined;

/**
 * Returns a new JSON Schema from a JSON Schema, a DTO class, a legacy field map (`{ a: 'int', b: Number,
 * c: { type: 'string', required: false } }`) or null (a closed empty object). Object schemas get
 * `properties`, `required` and `additionalProperties: false` unless they say otherwise; local `$ref`s are
 * inlined (a recursive one stays a reference); `title` is written when the schema has none. The input is
 * never mutated.
 *
 * @throws ToolDefinitionError for a source that is none of these, or schema data that JSON cannot hold
 * (functions, cycles).
 */
export function normalizeSchema(schema: SchemaSource, title?: string): JsonSchema {
  let result: JsonSchema;
  if (schema === null || schema === undefined) {
    result = { type: 'object', properties: {}, required: [], additionalProperties: false };
  } else if (typeof schema === 'function') {
    if (schema === String || schema === Number || schema === Boolean) {
      result = { type: schema === String ? 'string' : schema === Number ? 'number' : 'boolean' };
    } else if (isDtoClass(schema)) {
      result = classToJsonSchema(schema as Function);
    } else {
      throw new ToolDefinitionError(
        `Cannot build a schema from ${schema.name || 'this function'}: pass a JSON Schema object, a class-validator DTO class or a field map.`,
      );
    }
  } else if (typeof schema !== 'object' || Array.isArray(schema)) {
    throw new ToolDefinitionError(
      `A schema must be an object, a DTO class or null, got ${Array.isArray(schema) ? 'an array' : typeof schema}.`,
    );
  } else if (isJsonSchemaLike(schema)) {
    result = copySchemaData(schema) as JsonSchema;
  } else {
    result = legacyFieldMapToSchema(schema);
  }
  result = closeObjects(inlineLocalRefs(result)) as JsonSchema;
  if (title && result.title === undefined) result.title = title;
  return result;
}

function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (typeof node !== 'object' || node === null) return node;
  const schema: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    setOwn(
      schema,
      key,
      key === 'properties' || key === '$defs' || key === 'definitions' || key === 'patternProperties'
        ? mapValues(value, closeObjects)
        : key === 'enum' || key === 'const' || key === 'default' || key === 'examples' || key === 'required'
          ? value
          : closeObjects(value),
    );
  }
  if (schema.properties !== undefined && schema.type === undefined) schema.type = 'object';
  if (schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'))) {
    schema.properties ??= {};
    schema.required ??= [];
    schema.additionalProperties ??= false;
  }
  return schema;
}

function mapValues(value: unknown, transform: (item: unknown) => unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) setOwn(result, key, transform(item));
  return result;
}
