import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ToolDefinitionError } from '../../errors/tool-definition-error';
import type { JsonSchema } from '../json-schema';
import { isSafePattern } from './is-safe-pattern';
import type { ValidationIssue } from '../../errors/tool-validation-error';

let sharedAjv: Ajv | undefined;

function getAjv(): Ajv {
  if (!sharedAjv) {
    // ownProperties: a required `constructor` or `toString` must be the argument's own key, not Object.prototype's.
    sharedAjv = new Ajv({
      strict: false,
      allErrors: false,
      logger: false,
      validateSchema: false,
      unicodeRegExp: true,
      ownProperties: true,
    });
    addFormats(sharedAjv, { mode: 'fast' });
  }
  return sharedAjv;
}

/** A compiled Ajv validator that reports its first error as a {@link ValidationIssue}. */
export type AjvSchemaCheck = (value: unknown) => ValidationIssue | null;

/**
 * Compiles a schema with Ajv, the final authority on every keyword after coercion. Untrusted schemas lose
 * their unsafe `pattern`s first (they are enforced by the server that sent them).
 *
 * @throws ToolDefinitionError when Ajv cannot compile the schema.
 */
export function compileAjvSchemaCheck(schema: JsonSchema, untrusted: boolean): AjvSchemaCheck {
  const prepared = prepareForAjv(schema, untrusted);
  let validate: ValidateFunction;
  try {
    validate = getAjv().compile(prepared);
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

function prepareForAjv(schema: JsonSchema, untrusted: boolean): JsonSchema {
  const copy = stripKeywords(schema, untrusted, true) as JsonSchema;
  return copy;
}

function stripKeywords(node: unknown, untrusted: boolean, isRoot: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => stripKeywords(item, untrusted, false));
  if (typeof node !== 'object' || node === null) return node;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === '$id' || (key === 'id' && isRoot)) continue;
    if (untrusted && key === 'pattern' && typeof value === 'string' && !isSafePattern(value)) continue;
    if (untrusted && key === 'patternProperties') continue;
    if (key === 'default' || key === 'examples' || key === 'const' || key === 'enum') {
      result[key] = value;
      continue;
    }
    result[key] = stripKeywords(value, untrusted, false);
  }
  return result;
}
