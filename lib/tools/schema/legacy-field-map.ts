import type { JsonSchema } from '../json-schema';
import { classToJsonSchema } from './class-to-json-schema';
import { isDtoClass } from './dto-model';

const JSON_TYPE_NAMES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);
const SCHEMA_KEYWORDS = [
  '$defs', '$ref', '$schema', 'additionalProperties', 'allOf', 'anyOf', 'const', 'default', 'description', 'enum',
  'examples', 'format', 'items', 'oneOf', 'properties', 'required', 'title', 'definitions',
];
const TYPE_NAMES: Record<string, JsonSchema> = {
  str: { type: 'string' },
  string: { type: 'string' },
  int: { type: 'integer' },
  integer: { type: 'integer' },
  float: { type: 'number' },
  number: { type: 'number' },
  bool: { type: 'boolean' },
  boolean: { type: 'boolean' },
  dict: { type: 'object', additionalProperties: true },
  object: { type: 'object', additionalProperties: true },
  list: { type: 'array', items: {} },
  array: { type: 'array', items: {} },
  none: { type: 'null' },
  null: { type: 'null' },
};

/** Whether an object already looks like a JSON Schema (rather than a legacy field map). */
export function isJsonSchemaLike(value: Record<string, unknown>): boolean {
  if ('type' in value) {
    const type = value.type;
    if (typeof type === 'string') return JSON_TYPE_NAMES.has(type);
    return Array.isArray(type) && type.length > 0 && type.every((item) => typeof item === 'string' && JSON_TYPE_NAMES.has(item));
  }
  return SCHEMA_KEYWORDS.some((keyword) => keyword in value);
}

/**
 * Converts a legacy field map (`{ a: 'int', b: Number, c: { type: 'string', required: false } }`) to a
 * closed object schema. A field is required when it says so, or, without a flag, when it has no default.
 */
export function legacyFieldMapToSchema(map: Record<string, unknown>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, definition] of Object.entries(map)) {
    let flag: unknown;
    let schema: JsonSchema;
    if (typeof definition === 'object' && definition !== null && !Array.isArray(definition)) {
      const { required: requiredFlag, ...rest } = structuredClone(definition) as Record<string, unknown>;
      flag = typeof requiredFlag === 'boolean' ? requiredFlag : undefined;
      schema = isJsonSchemaLike(rest) ? (rest as JsonSchema) : legacyFieldMapToSchema(rest);
    } else {
      schema = fieldTypeToSchema(definition);
    }
    properties[name] = schema;
    if (flag === true || (flag === undefined && schema.default === undefined)) required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

function fieldTypeToSchema(definition: unknown): JsonSchema {
  if (typeof definition === 'string') return { ...(TYPE_NAMES[definition.trim().toLowerCase()] ?? {}) };
  switch (definition) {
    case String:
      return { type: 'string' };
    case Number:
      return { type: 'number' };
    case Boolean:
      return { type: 'boolean' };
    case Array:
      return { type: 'array', items: {} };
    case Object:
      return { type: 'object', additionalProperties: true };
    case null:
      return { type: 'null' };
    default:
      if (typeof definition === 'function' && isDtoClass(definition)) return classToJsonSchema(definition as Function);
      return {};
  }
}
