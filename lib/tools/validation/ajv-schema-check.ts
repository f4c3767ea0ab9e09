import type Ajv from 'ajv';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import type { RegExpEngine } from 'ajv/dist/types';
import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { lazyRequire } from '../../runtime/lazy-require';
import type { JsonSchema } from '../json-schema';
import { compileUntrustedPattern } from './compile-untrusted-pattern';
import { getUntrustedFormats } from './untrusted-formats';
import type { ValidationIssue } from '../../errors/tool-validation-error';

// Ajv and ajv-formats load with the first schema compiled, not with `import 'protolink'`: compiled
// validators are cached per schema, so calls never come back here.
const loadAjv = lazyRequire((): typeof import('ajv') => require('ajv'));
const loadAjvFormats = lazyRequire((): typeof import('ajv-formats') => require('ajv-formats'));

let trustedAjv: Ajv | undefined;
let untrustedAjv: Ajv | undefined;
let copiesAjv: Ajv | undefined;

/** Ajv's `pattern`/`patternProperties` engine for untrusted schemas: RE2JS, linear in the value's length. */
const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string): { test: (value: string) => boolean } => compileUntrustedPattern(pattern),
  { code: 'compileUntrustedPattern' },
);

function getAjv(untrusted: boolean, ownProperties: boolean): Ajv {
  if (untrusted) return (untrustedAjv ??= createAjv(true, true));
  if (!ownProperties) return (copiesAjv ??= createAjv(false, false));
  return (trustedAjv ??= createAjv(false, true));
}

function createAjv(untrusted: boolean, ownProperties: boolean): Ajv {
  // ownProperties: a required `constructor` or `toString` must be the argument's own key, not Object.prototype's.
  const options: Options = {
    strict: false,
    allErrors: false,
    logger: false,
    validateSchema: false,
    unicodeRegExp: true,
    ownProperties,
  };
  if (untrusted) options.code = { regExp: linearRegExp };
  const ajv = new (loadAjv().default)(options);
  loadAjvFormats().default(ajv, { mode: 'fast' });
  // The `url` of ajv-formats backtracks quadratically on hostile values, whoever wrote the schema.
  ajv.addFormat('url', { type: 'string', validate: getUntrustedFormats().url });
  if (untrusted) {
    for (const [name, validate] of Object.entries(getUntrustedFormats())) {
      if (typeof validate === 'function' && !['int32', 'int64', 'float', 'double'].includes(name))
        ajv.addFormat(name, { type: 'string', validate });
    }
  }
  return ajv;
}

/** A compiled Ajv validator that reports its first error as a {@link ValidationIssue}. */
export type AjvSchemaCheck = (value: unknown) => ValidationIssue | null;

/**
 * Compiles a schema with Ajv, the final authority on every keyword after coercion. Untrusted schemas get an
 * Ajv whose patterns run in the linear-time engine and whose formats are linear (see
 * {@link getUntrustedFormats}).
 *
 * `forCopies`: the check only ever sees copies made by `tryCopyJson` (plain objects whose prototype is
 * `Object.prototype`, which it found free of enumerable properties) of a trusted schema naming no member of
 * `Object.prototype` (see {@link namesPrototypeMember}); then nothing can be inherited under a name the schema
 * reads, and Ajv's `ownProperties` checks (five times the cost on nested objects) are left out.
 *
 * @throws ToolDefinitionError when Ajv cannot compile the schema.
 */
export function compileAjvSchemaCheck(
  schema: JsonSchema,
  untrusted: boolean,
  forCopies = false,
): AjvSchemaCheck {
  const prepared = prepareForAjv(schema);
  let validate: ValidateFunction;
  try {
    validate = getAjv(untrusted, !(forCopies && !untrusted)).compile(prepared);
  } catch (error) {
    throw new ToolDefinitionError(`The input schema cannot be compiled: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return (value) => (validate(value) ? null : toIssue(validate.errors?.[0]));
}

function toIssue(error: ErrorObject | undefined): ValidationIssue {
  if (!error) return { path: '', message: 'does not match the schema' };
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return { path: path ? `${path}.${missing}` : missing, message: 'is required' };
  }
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    return { path: path ? `${path}.${extra}` : extra, message: 'is not an accepted field' };
  }
  return { path, message: error.message ?? 'does not match the schema' };
}

function prepareForAjv(schema: JsonSchema): JsonSchema {
  return stripKeywords(schema, true) as JsonSchema;
}

function stripKeywords(node: unknown, isRoot: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => stripKeywords(item, false));
  if (typeof node !== 'object' || node === null) return node;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === '$id' || (key === 'id' && isRoot)) continue;
    if (key === 'default' || key === 'examples' || key === 'const' || key === 'enum') {
      result[key] = value;
      continue;
    }
    result[key] = stripKeywords(value, false);
  }
  return result;
}

/**
 * Whether a schema names, as a property or a required key anywhere, something `Object.prototype` has
 * (`constructor`, `toString`, `__proto__`…): a check without `ownProperties` would see the inherited member.
 * Every subschema is visited (each entry of `properties`, whatever its name); values of `enum`, `const`,
 * `default` and `examples` are data, not schemas.
 */
export function namesPrototypeMember(schema: unknown, depth = 0): boolean {
  if (depth > 64) return true;
  if (Array.isArray(schema)) return schema.some((item) => namesPrototypeMember(item, depth + 1));
  if (typeof schema !== 'object' || schema === null) return false;
  const node = schema as Record<string, unknown>;
  const { properties, required } = node;
  if (Array.isArray(required) && required.some((name) => String(name) in Object.prototype)) return true;
  if (typeof properties === 'object' && properties !== null) {
    for (const name of Object.keys(properties)) {
      if (name in Object.prototype) return true;
      if (namesPrototypeMember((properties as Record<string, unknown>)[name], depth + 1)) return true;
    }
  }
  return Object.keys(node).some(
    (key) => !DATA_KEYWORDS.has(key) && key !== 'properties' && namesPrototypeMember(node[key], depth + 1),
  );
}

/** Keywords whose values are data, never subschemas. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['enum', 'const', 'default', 'examples', 'required']);
