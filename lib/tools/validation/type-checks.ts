import type { JsonSchema } from '../json-schema';
import type { CompileContext } from './compile-schema-check';
import { describeType } from './copy-json-value';
import { coerceBoolean, coerceInteger, coerceNumber, NOT_COERCIBLE } from './coerce-scalar';
import { buildArrayCheck } from './array-check';
import { buildObjectCheck } from './object-check';
import { buildNumberBounds, buildStringRules } from './keyword-checks';
import type { SchemaCheck } from './schema-check';

/** The JSON Schema type names. */
export const JSON_TYPES: ReadonlySet<string> = new Set([
  'string',
  'number',
  'integer',
  'boolean',
  'null',
  'array',
  'object',
]);

const ARTICLE: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  null: 'null',
  array: 'an array',
  object: 'an object',
};

/**
 * Builds the check of a schema's `type` and its type-specific keywords. With `types` null, the keywords
 * apply only to values of their type and nothing is coerced.
 */
export function buildTypeCheck(
  node: JsonSchema,
  types: string[] | null,
  pointer: string,
  context: CompileContext,
): SchemaCheck {
  if (types === null) return buildUntypedCheck(node, pointer, context);
  const checks = types.map((type) => buildSingleTypeCheck(node, type, pointer, context));
  if (checks.length === 1) return checks[0];
  const expected = types.map((type) => ARTICLE[type]).join(' or ');
  const acceptsNull = types.includes('null');
  const candidates = types.flatMap((type, index) =>
    type === 'null' ? [] : [{ type, check: checks[index] }],
  );
  // A value that already is one of the types is never coerced to another (as Ajv's coerceTypes does):
  // `"2"` stays a string under ['integer', 'string'], `2` stays a number under ['string', 'integer'].
  return (value, path, depth, state) => {
    if (value === null && acceptsNull) return null;
    let reported: readonly { path: string; message: string }[] | null = null;
    for (const native of [true, false]) {
      for (const { type, check } of candidates) {
        if (isNativeType(value, type) !== native) continue;
        const trial = state.startTrial();
        const result = check(value, path, depth, trial);
        if (trial.issues.length === 0) {
          state.nodes = trial.nodes;
          return result;
        }
        // The value's own type (or the only non-null type) gives the most useful message.
        if (reported === null && (native || candidates.length === 1)) reported = trial.issues;
      }
    }
    if (reported !== null) {
      for (const issue of reported) state.addIssue(issue.path, issue.message);
      return value;
    }
    state.addIssue(path, `must be ${expected}, got ${describeType(value)}`);
    return value;
  };
}

function isNativeType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return value === null;
  }
}

function buildSingleTypeCheck(
  node: JsonSchema,
  type: string,
  pointer: string,
  context: CompileContext,
): SchemaCheck {
  switch (type) {
    case 'string': {
      const rules = buildStringRules(node, pointer, context.options);
      return (value, path, _depth, state) => {
        state.countNode(path);
        if (typeof value !== 'string') {
          state.addIssue(path, `must be a string, got ${describeType(value)}`);
          return value;
        }
        if (value.length > state.limits.maxStringLength) {
          state.addIssue(path, `must be at most ${state.limits.maxStringLength} characters long`);
          return value;
        }
        if (rules) rules(value, path, state);
        return value;
      };
    }
    case 'integer':
    case 'number': {
      const bounds = buildNumberBounds(node);
      const coerce = type === 'integer' ? coerceInteger : coerceNumber;
      return (value, path, _depth, state) => {
        state.countNode(path);
        const converted = typeof value === 'boolean' ? NOT_COERCIBLE : coerce(value);
        if (converted === NOT_COERCIBLE) {
          state.addIssue(path, `must be ${ARTICLE[type]}, got ${describeValue(value)}`);
          return value;
        }
        if (bounds) bounds(converted, path, state);
        return converted;
      };
    }
    case 'boolean':
      return (value, path, _depth, state) => {
        state.countNode(path);
        const converted = coerceBoolean(value);
        if (converted === NOT_COERCIBLE) {
          state.addIssue(path, `must be a boolean, got ${describeValue(value)}`);
          return value;
        }
        return converted;
      };
    case 'null':
      return (value, path, _depth, state) => {
        state.countNode(path);
        if (value !== null) state.addIssue(path, `must be null, got ${describeType(value)}`);
        return value;
      };
    case 'array':
      return buildArrayCheck(node, pointer, context);
    default:
      return buildObjectCheck(node, pointer, context);
  }
}

function buildUntypedCheck(node: JsonSchema, pointer: string, context: CompileContext): SchemaCheck {
  const stringRules = buildStringRules(node, pointer, context.options);
  const bounds = buildNumberBounds(node);
  return (value, path, depth, state) => {
    if (typeof value === 'string' && stringRules) stringRules(value, path, state);
    if (typeof value === 'number' && bounds) bounds(value, path, state);
    return context.compile(true, pointer)(value, path, depth, state);
  };
}

function describeValue(value: unknown): string {
  if (typeof value === 'string')
    return value.length <= 40 ? `the string ${JSON.stringify(value)}` : 'a string';
  return describeType(value);
}
