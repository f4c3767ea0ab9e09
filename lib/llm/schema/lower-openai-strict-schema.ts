import type { JsonSchema } from '../../tools/json-schema';
import {
  acceptsNull,
  childPath,
  describeConstraints,
  typeHint,
  isSchemaObject,
  loweringError,
} from './schema-lowering';
import type { LoweringScope } from './schema-lowering';
import { assertObjectRoot } from './assert-object-root';
import { requireLocalRef } from './require-local-ref';
import { sortSchemaKeywords } from './sort-schema-keywords';

const KEPT = new Set([
  'type',
  'enum',
  'const',
  'description',
  'title',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);
const HANDLED = new Set([
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
  '$defs',
  'definitions',
  'format',
  'default',
  'nullable',
]);
const STRING_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);
const MAX_OBJECT_DEPTH = 10;
const MAX_ENUM_VALUES = 1000;
const MAX_TOTAL_PROPERTIES = 5000;

interface StrictState {
  scope: LoweringScope;
  root: JsonSchema;
  properties: number;
}

/**
 * Lowers a canonical tool schema to OpenAI's strict function-calling subset: every object closed, every
 * property required (optional ones made nullable, so the model sends `null` for "absent"), `oneOf` →
 * `anyOf`, local `$ref`s kept (recursion is allowed), keywords strict mode does not take moved into the
 * description (validation still enforces them locally). Returns a new schema.
 *
 * @throws ToolDefinitionError naming the tool and the path of a part strict mode cannot express.
 */
export function lowerOpenAIStrictSchema(schema: JsonSchema, scope: LoweringScope): JsonSchema {
  const state: StrictState = { scope, root: schema, properties: 0 };
  assertObjectRoot(schema, scope, {
    unionFix: 'The root of a strict schema must be one object; wrap the union in a property.',
    allowUntypedRoot: false,
  });
  const result = lowerNode({ ...schema, type: 'object' }, '#', 0, state);
  for (const section of ['$defs', 'definitions'] as const) {
    const definitions = schema[section];
    if (!isSchemaObject(definitions)) continue;
    const lowered: Record<string, JsonSchema> = {};
    for (const [name, definition] of Object.entries(definitions)) {
      lowered[name] = lowerNode(definition as JsonSchema, childPath('#', section, name), 1, state);
    }
    result[section] = lowered;
  }
  return result;
}

function lowerNode(node: JsonSchema, path: string, depth: number, state: StrictState): JsonSchema {
  const { scope } = state;
  if (!isSchemaObject(node))
    throw loweringError(scope, path, 'is not a schema object', 'Use a JSON Schema object here.');
  if (typeof node.$ref === 'string') {
    requireLocalRef(state.root, node.$ref, scope, path);
    return typeof node.description === 'string'
      ? { $ref: node.$ref, description: node.description }
      : { $ref: node.$ref };
  }
  const { result, described } = sortSchemaKeywords(node, path, {
    scope,
    kept: KEPT,
    handled: HANDLED,
    openMapFix: 'Strict mode needs closed objects: declare the properties.',
    tupleFix: 'Strict mode has no tuples: use an object with named properties.',
  });
  if (typeof node.format === 'string') {
    if (STRING_FORMATS.has(node.format)) result.format = node.format;
    else described.format = node.format;
  }
  if (node.default !== undefined && node.default !== null) described.default = node.default;
  if (Array.isArray(result.enum) && result.enum.length > MAX_ENUM_VALUES) {
    throw loweringError(
      scope,
      childPath(path, 'enum'),
      `has ${result.enum.length} values (at most ${MAX_ENUM_VALUES})`,
      'Shorten the enum or use a plain string.',
    );
  }
  const unions = [...(node.anyOf ?? []), ...(node.oneOf ?? [])];
  if (node.anyOf || node.oneOf) {
    const key = node.anyOf ? 'anyOf' : 'oneOf';
    result.anyOf = unions.map((option, index) =>
      lowerNode(option, childPath(path, key, index), depth, state),
    );
  }
  if (node.allOf) mergeAllOf(node, result, path, depth, state);
  const types = Array.isArray(result.type) ? result.type : result.type === undefined ? [] : [result.type];
  if (types.includes('object') || node.properties !== undefined)
    lowerObject(node, result, path, depth, state);
  if (types.includes('array') || node.items !== undefined) lowerArray(node, result, path, depth, state);
  if (types.length === 0 && !result.anyOf && result.enum === undefined && !('const' in result)) {
    throw loweringError(
      scope,
      path,
      'accepts any value (it has no type)',
      `Strict mode needs a type: give this part a type or an enum.${typeHint(path)}`,
    );
  }
  const description = describeConstraints(result.description, described);
  if (description !== undefined) result.description = description;
  return node.nullable === true ? makeNullable(result) : result;
}

function lowerObject(
  node: JsonSchema,
  result: JsonSchema,
  path: string,
  depth: number,
  state: StrictState,
): void {
  const { scope } = state;
  if (depth >= MAX_OBJECT_DEPTH) {
    throw loweringError(
      scope,
      path,
      `nests objects more than ${MAX_OBJECT_DEPTH} levels deep`,
      'Flatten the arguments.',
    );
  }
  const additional = node.additionalProperties;
  if (additional === true || (isSchemaObject(additional) && additional !== null)) {
    throw loweringError(
      scope,
      childPath(path, 'additionalProperties'),
      'makes the object an open map',
      'Strict mode needs closed objects: declare the properties, or pass an array of { key, value } objects.',
    );
  }
  if (result.type === undefined) result.type = 'object';
  const required = new Set(Array.isArray(node.required) ? node.required : []);
  const properties: Record<string, JsonSchema> = {};
  for (const [name, property] of Object.entries(node.properties ?? {})) {
    state.properties += 1;
    if (state.properties > MAX_TOTAL_PROPERTIES) {
      throw loweringError(
        scope,
        path,
        `brings the schema past ${MAX_TOTAL_PROPERTIES} properties`,
        'Split the tool.',
      );
    }
    const lowered = lowerNode(property, childPath(path, 'properties', name), depth + 1, state);
    // Strict mode requires every key; "optional" becomes "required but nullable", and validateToolArgs
    // turns the null back into "absent".
    properties[name] = required.has(name) ? lowered : makeNullable(lowered);
  }
  result.properties = properties;
  result.required = Object.keys(properties);
  result.additionalProperties = false;
}

function lowerArray(
  node: JsonSchema,
  result: JsonSchema,
  path: string,
  depth: number,
  state: StrictState,
): void {
  if (Array.isArray(node.items)) {
    throw loweringError(
      state.scope,
      childPath(path, 'items'),
      'is a tuple (an array of item schemas)',
      'Strict mode has no tuples: use an object with named properties.',
    );
  }
  if (node.items === undefined) {
    throw loweringError(state.scope, path, 'is an array with no item schema', 'Give it `items` with a type.');
  }
  result.items = lowerNode(node.items, childPath(path, 'items'), depth + 1, state);
}

function mergeAllOf(
  node: JsonSchema,
  result: JsonSchema,
  path: string,
  depth: number,
  state: StrictState,
): void {
  const parts = node.allOf ?? [];
  if (parts.length !== 1 || node.type !== undefined || node.properties !== undefined) {
    throw loweringError(
      state.scope,
      childPath(path, 'allOf'),
      'combines schemas with allOf',
      'Strict mode has no allOf: merge the parts into one object schema.',
    );
  }
  const lowered = lowerNode(parts[0], childPath(path, 'allOf', 0), depth, state);
  for (const [key, value] of Object.entries(lowered)) if (result[key] === undefined) result[key] = value;
}

/** Makes a lowered schema accept null as well (type array, enum member or an anyOf option). */
export function makeNullable(schema: JsonSchema): JsonSchema {
  if (acceptsNull(schema)) return schema;
  const next: JsonSchema = { ...schema };
  if (next.anyOf) {
    next.anyOf = [...next.anyOf, { type: 'null' }];
    return next;
  }
  if (next.$ref !== undefined || 'const' in next || next.type === undefined) {
    const { description, ...inner } = next;
    return description === undefined
      ? { anyOf: [inner, { type: 'null' }] }
      : { anyOf: [inner, { type: 'null' }], description };
  }
  addNull(next);
  return next;
}

function addNull(schema: JsonSchema): void {
  if (typeof schema.type === 'string' && schema.type !== 'null') schema.type = [schema.type, 'null'];
  else if (Array.isArray(schema.type) && !schema.type.includes('null'))
    schema.type = [...schema.type, 'null'];
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
}
