import { ToolDefinitionError } from '../../errors/tool-definition-error';
import type { JsonSchema } from '../json-schema';
import { UNCONSTRAINING_KEYWORDS } from './is-permissive-schema';
import { isJsonSchemaLike } from './legacy-field-map';
import { normalizeSchema } from './normalize-schema';

/** Every keyword of JSON Schema drafts 07, 2019-09 and 2020-12 (draft-04's bare `id` is a field name here). */
const JSON_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  '$ref',
  '$defs',
  'definitions',
  '$comment',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
  '$vocabulary',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  'dependencies',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'prefixItems',
  'items',
  'additionalItems',
  'contains',
  'properties',
  'patternProperties',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
]);

/** How {@link toValidationSchema} reads a schema. */
export interface ToValidationSchemaOptions {
  /** The schema came from outside (an MCP server, or kept as given): it is never read as a legacy field map. */
  untrusted?: boolean;
}

/**
 * Returns the JSON Schema that validates arguments given `schema`, the schema a caller handed to the
 * validator. A root whose keys are all JSON Schema keywords is a JSON Schema and is returned as it is (`{}`
 * and annotations only included, with the meaning JSON Schema gives them). A root with other keys that
 * {@link normalizeSchema} reads as a legacy field map (`{ a: 'int', b: { type: 'string', required: false } }`)
 * becomes the closed object schema {@link normalizeSchema} makes of it. Any other root with unknown keys is
 * a JSON Schema with extension keywords when it has a keyword that constrains (`type`, `properties`…), and
 * refused otherwise: unknown keys never silently mean "accept anything".
 *
 * @throws ToolDefinitionError for a root read as a field map that is not one (`{ foo: 1 }`); for unknown
 * keys next to annotations only (`{ description: 'str', count: 'int' }`), which its keywords keep from
 * being a field map; and, when `untrusted`, for unknown keys with nothing that constrains (a schema from
 * outside is never read as a field map).
 */
export function toValidationSchema(schema: JsonSchema, options: ToValidationSchemaOptions = {}): JsonSchema {
  const keys = Object.keys(schema);
  const unknown = keys.filter((key) => !JSON_SCHEMA_KEYWORDS.has(key));
  if (unknown.length === 0) return schema;
  const listing = unknown.map((key) => `'${key}'`).join(', ');
  if (!isJsonSchemaLike(schema) && options.untrusted !== true) {
    try {
      return normalizeSchema(schema);
    } catch (error) {
      throw new ToolDefinitionError(
        `The schema is neither a JSON Schema nor a legacy field map: its keys ${listing} are not JSON Schema keywords, so it was read as a field map, which fails: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  if (keys.some((key) => JSON_SCHEMA_KEYWORDS.has(key) && !UNCONSTRAINING_KEYWORDS.has(key))) return schema;
  if (options.untrusted === true) {
    throw new ToolDefinitionError(
      `The schema is not a usable JSON Schema: its keys ${listing} are not JSON Schema keywords and nothing in it constrains, so it would accept anything; a schema from outside (an MCP server, or one kept as given) is never read as a legacy field map. ` +
        `It must be a JSON Schema such as { type: 'object', properties: { … } }.`,
    );
  }
  const annotations = keys.filter((key) => JSON_SCHEMA_KEYWORDS.has(key)).map((key) => `'${key}'`);
  throw new ToolDefinitionError(
    `The schema is neither a usable JSON Schema nor a legacy field map: its keys ${listing} are not JSON Schema keywords and its only keywords (${annotations.join(', ')}) constrain nothing, so as a JSON Schema it would accept anything; those keywords keep it from being read as a field map. ` +
      `Write a JSON Schema such as { type: 'object', properties: { … }, required: [ … ] }, or a field map without JSON Schema keywords such as { count: 'int' }.`,
  );
}
