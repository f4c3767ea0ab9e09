import { designTypeToSchema } from './design-type-to-schema';
import { ToolDefinitionError } from '../../errors/tool-definition-error';
import type { JsonSchema } from '../json-schema';
import { setOwn } from '../validation/copy-json-value';
import { classToJsonSchema } from './class-to-json-schema';
import { copySchemaData } from './copy-schema-data';
import { isDtoClass } from './dto-model';

const JSON_TYPE_NAMES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);
const SCHEMA_KEYWORDS = [
  '$defs',
  '$ref',
  '$schema',
  'additionalProperties',
  'allOf',
  'anyOf',
  'const',
  'default',
  'description',
  'enum',
  'examples',
  'format',
  'items',
  'oneOf',
  'properties',
  'required',
  'title',
  'definitions',
];
/** Keywords that may sit next to a legacy `type` (`{ type: 'int', description: '…', default: 1 }`). */
const FIELD_KEYWORDS = new Set([
  'default',
  'description',
  'enum',
  'examples',
  'format',
  'maximum',
  'maxItems',
  'maxLength',
  'minimum',
  'minItems',
  'minLength',
  'pattern',
  'title',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'items',
  'const',
  'nullable',
]);
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
    return (
      Array.isArray(type) &&
      type.length > 0 &&
      type.every((item) => typeof item === 'string' && JSON_TYPE_NAMES.has(item))
    );
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
      const { required: requiredFlag, type, ...others } = definition as Record<string, unknown>;
      flag = typeof requiredFlag === 'boolean' ? requiredFlag : undefined;
      if (isLegacyFieldType(type) && Object.keys(others).every((key) => FIELD_KEYWORDS.has(key))) {
        // `{ type: 'int' | Number, required: false, description: '…' }`: one field written the legacy way.
        schema = {
          ...(copySchemaData(others, `field '${name}'`) as JsonSchema),
          ...fieldTypeToSchema(name, type),
        };
      } else {
        const rest = withoutRequired(definition as Record<string, unknown>);
        schema = isJsonSchemaLike(rest)
          ? (copySchemaData(rest, `field '${name}'`) as JsonSchema)
          : legacyFieldMapToSchema(rest);
      }
    } else {
      schema = fieldTypeToSchema(name, definition);
    }
    setOwn(properties as Record<string, unknown>, name, schema);
    if (flag === true || (flag === undefined && schema.default === undefined)) required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

function withoutRequired(definition: Record<string, unknown>): Record<string, unknown> {
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(definition)) if (key !== 'required') setOwn(rest, key, value);
  return rest;
}

/** A legacy type alias that is not a JSON type name (`int`, `str`…), or a constructor such as `Number`. */
function isLegacyFieldType(type: unknown): boolean {
  if (typeof type === 'function') return true;
  return (
    typeof type === 'string' &&
    !JSON_TYPE_NAMES.has(type) &&
    TYPE_NAMES[type.trim().toLowerCase()] !== undefined
  );
}

function fieldTypeToSchema(name: string, definition: unknown): JsonSchema {
  if (typeof definition === 'string') return { ...(TYPE_NAMES[definition.trim().toLowerCase()] ?? {}) };
  switch (definition) {
    case String:
    case Number:
    case Boolean:
    case Array:
    case Date:
      return designTypeToSchema(definition as Function);
    case Object:
      return { type: 'object', additionalProperties: true };
    case null:
      return { type: 'null' };
    default:
      if (typeof definition === 'function') {
        if (isDtoClass(definition)) return classToJsonSchema(definition as Function);
        throw new ToolDefinitionError(
          `Field '${name}' of the field map is typed by ${definition.name || 'an anonymous function'}, which has no class-validator decorators. ` +
            'Decorate its properties, or give the field a JSON Schema.',
        );
      }
      throw new ToolDefinitionError(
        `Field '${name}' of the field map has the type ${String(definition)}. Use a type name ('int', 'str', 'bool'…), ` +
          "a constructor (Number, String, Boolean), a DTO class, or an object such as { type: 'string', required: false }.",
      );
  }
}
