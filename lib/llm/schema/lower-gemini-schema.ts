import type { JsonSchema } from '../../tools/json-schema';
import { childPath, describeConstraints, typeHint, isSchemaObject, loweringError } from './schema-lowering';
import type { LoweringScope } from './schema-lowering';
import { assertObjectRoot } from './assert-object-root';
import { requireLocalRef } from './require-local-ref';
import { sortSchemaKeywords } from './sort-schema-keywords';

const KEPT = new Set([
  'description',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'example',
  'default',
]);
const HANDLED = new Set([
  'type',
  'format',
  'nullable',
  'enum',
  'const',
  'items',
  'properties',
  'required',
  'additionalProperties',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
  '$defs',
  'definitions',
  'title',
]);
const FORMATS: Record<string, ReadonlySet<string>> = {
  string: new Set(['enum', 'date-time']),
  number: new Set(['float', 'double']),
  integer: new Set(['int32', 'int64']),
};
const GEMINI_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

interface GeminiState {
  scope: LoweringScope;
  root: JsonSchema;
}

/**
 * Lowers a canonical tool schema to Gemini's OpenAPI 3.0 subset: local `$ref`s inlined (recursion rejected),
 * type arrays and null options → `nullable: true`, `oneOf` → `anyOf`, `const` → `enum`, non-string enums
 * sent as strings (`format: "enum"`), no `additionalProperties`, `$schema`, `$defs` or `title`; keywords
 * Gemini does not take are moved into the description (validation still enforces them locally). Returns a
 * new schema.
 *
 * @throws ToolDefinitionError naming the tool and the path of a part Gemini cannot express.
 */
export function lowerGeminiSchema(schema: JsonSchema, scope: LoweringScope): JsonSchema {
  assertObjectRoot(schema, scope, {
    unionFix: 'Tool arguments must be one object; wrap the union in a property.',
    allowUntypedRoot: false,
  });
  return lowerNode({ ...schema, type: 'object' }, '#', ['#'], { scope, root: schema }, true);
}

function lowerNode(
  node: JsonSchema,
  path: string,
  active: string[],
  state: GeminiState,
  isRoot = false,
): JsonSchema {
  const { scope } = state;
  if (!isSchemaObject(node))
    throw loweringError(scope, path, 'is not a schema object', 'Use a JSON Schema object here.');
  if (typeof node.$ref === 'string') return lowerReference(node, path, active, state);
  const { result, described } = sortSchemaKeywords(node, path, {
    scope,
    kept: KEPT,
    handled: HANDLED,
    openMapFix: 'Gemini has no maps: declare the properties, or take an array of { key, value } objects.',
    tupleFix: 'Gemini has no tuples: use an object with named properties.',
  });
  let nullable = node.nullable === true;
  let types = Array.isArray(node.type) ? [...node.type] : node.type === undefined ? [] : [node.type];
  if (types.includes('null')) {
    nullable = true;
    types = types.filter((type) => type !== 'null');
  }
  const options = lowerUnion(node, path, active, state);
  if (options.nullable) nullable = true;
  if (options.anyOf.length === 1 && types.length === 0) mergeInto(result, options.anyOf[0]);
  else if (options.anyOf.length > 0) result.anyOf = options.anyOf;
  if (node.allOf) mergeInto(result, lowerAllOf(node, path, active, state));
  const values = node.enum !== undefined ? node.enum : 'const' in node ? [node.const] : undefined;
  if (values !== undefined) nullable = lowerEnum(values, types, result, path, state) || nullable;
  if (types.length > 1) {
    result.anyOf = types.map((type) => ({ type }));
  } else if (types.length === 1 && result.type === undefined) {
    result.type = types[0];
  }
  if (typeof result.type === 'string' && !GEMINI_TYPES.has(result.type)) {
    throw loweringError(
      scope,
      childPath(path, 'type'),
      `has type ${JSON.stringify(result.type)}`,
      'Gemini takes string, number, integer, boolean, array and object.',
    );
  }
  if (result.type === 'object' || (result.type === undefined && node.properties !== undefined))
    lowerObject(node, result, path, active, state, isRoot);
  if (result.type === 'array' || (result.type === undefined && node.items !== undefined))
    lowerArray(node, result, path, active, state);
  if (typeof node.format === 'string') {
    const allowed = typeof result.type === 'string' ? FORMATS[result.type] : undefined;
    if (allowed?.has(node.format) && result.format === undefined) result.format = node.format;
    else if (result.format === undefined) described.format = node.format;
  }
  if (result.type === undefined && !result.anyOf) {
    throw loweringError(
      scope,
      path,
      nullable ? 'only accepts null' : 'accepts any value (it has no type)',
      `Gemini needs a type: give this part a type or an enum.${typeHint(path)}`,
    );
  }
  if (nullable) result.nullable = true;
  // A null default says "absent", which Gemini expresses by leaving the property out.
  if (result.default === null) delete result.default;
  const description = describeConstraints(result.description, described);
  if (description !== undefined) result.description = description;
  const { type, ...rest } = result;
  return type === undefined ? rest : { type, ...rest };
}

function lowerReference(node: JsonSchema, path: string, active: string[], state: GeminiState): JsonSchema {
  const reference = node.$ref as string;
  const target = requireLocalRef(state.root, reference, state.scope, path);
  if (active.includes(reference)) {
    throw loweringError(
      state.scope,
      path,
      `is recursive (it refers back to ${reference})`,
      'Gemini function declarations cannot express recursive schemas: limit the depth with a non-recursive DTO for the nested levels.',
    );
  }
  const { $ref: _reference, ...siblings } = node;
  const inlined = lowerNode(target, path, [...active, reference], state, reference === '#');
  if (typeof siblings.description === 'string') inlined.description = siblings.description;
  return inlined;
}

function lowerUnion(
  node: JsonSchema,
  path: string,
  active: string[],
  state: GeminiState,
): { anyOf: JsonSchema[]; nullable: boolean } {
  const key = node.anyOf ? 'anyOf' : node.oneOf ? 'oneOf' : undefined;
  if (!key) return { anyOf: [], nullable: false };
  let nullable = false;
  const anyOf: JsonSchema[] = [];
  (node[key] as JsonSchema[]).forEach((option, index) => {
    if (isSchemaObject(option) && option.type === 'null') {
      nullable = true;
      return;
    }
    const lowered = lowerNode(option, childPath(path, key, index), active, state);
    if (lowered.nullable) nullable = true;
    anyOf.push(lowered);
  });
  return { anyOf, nullable };
}

function lowerAllOf(node: JsonSchema, path: string, active: string[], state: GeminiState): JsonSchema {
  const parts = node.allOf ?? [];
  if (parts.length !== 1 || node.type !== undefined || node.properties !== undefined) {
    throw loweringError(
      state.scope,
      childPath(path, 'allOf'),
      'combines schemas with allOf',
      'Gemini has no allOf: merge the parts into one object schema.',
    );
  }
  return lowerNode(parts[0], childPath(path, 'allOf', 0), active, state);
}

function lowerEnum(
  values: unknown[],
  types: string[],
  result: JsonSchema,
  path: string,
  state: GeminiState,
): boolean {
  const members = values.filter((value) => value !== null);
  if (members.some((value) => typeof value === 'object')) {
    throw loweringError(
      state.scope,
      childPath(path, 'enum'),
      'has object or array members',
      'Gemini enums take plain values only.',
    );
  }
  result.enum = members.map((value) => String(value));
  if (!members.every((value) => typeof value === 'string')) {
    // Gemini enums are strings; validateToolArgs coerces "1" back to 1 for integer and number schemas.
    result.format = 'enum';
    if (result.default !== undefined && result.default !== null) result.default = String(result.default);
    result.description = describeConstraints(result.description, {
      'send one of': members.map(String).join(' | '),
    });
  }
  types.splice(0, types.length, 'string');
  return members.length !== values.length;
}

function lowerObject(
  node: JsonSchema,
  result: JsonSchema,
  path: string,
  active: string[],
  state: GeminiState,
  isRoot: boolean,
): void {
  result.type = 'object';
  const additional = node.additionalProperties;
  const properties: Record<string, JsonSchema> = {};
  for (const [name, property] of Object.entries(node.properties ?? {})) {
    properties[name] = lowerNode(property, childPath(path, 'properties', name), active, state);
  }
  if (Object.keys(properties).length === 0 && (additional === true || isSchemaObject(additional))) {
    throw loweringError(
      state.scope,
      childPath(path, 'additionalProperties'),
      'makes the object an open map',
      'Gemini has no maps: declare the properties, or take an array of { key, value } objects.',
    );
  }
  if (Object.keys(properties).length === 0 && !isRoot) {
    throw loweringError(
      state.scope,
      path,
      'is an object with no properties',
      'Gemini rejects empty nested objects: declare its properties or remove it.',
    );
  }
  result.properties = properties;
  const required = (Array.isArray(node.required) ? node.required : []).filter((name) => name in properties);
  if (required.length > 0) result.required = required;
}

function lowerArray(
  node: JsonSchema,
  result: JsonSchema,
  path: string,
  active: string[],
  state: GeminiState,
): void {
  result.type = 'array';
  if (Array.isArray(node.items)) {
    throw loweringError(
      state.scope,
      childPath(path, 'items'),
      'is a tuple (an array of item schemas)',
      'Gemini has no tuples: use an object with named properties.',
    );
  }
  if (node.items === undefined) {
    throw loweringError(
      state.scope,
      path,
      'is an array with no item schema',
      'Gemini needs `items` with a type.',
    );
  }
  result.items = lowerNode(node.items, childPath(path, 'items'), active, state);
}

function mergeInto(target: JsonSchema, source: JsonSchema): void {
  for (const [key, value] of Object.entries(source)) {
    if (key === 'description' && typeof target.description === 'string') continue;
    if (key === 'nullable') continue;
    target[key] = value;
  }
}
