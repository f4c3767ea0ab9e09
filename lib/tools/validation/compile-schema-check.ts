import { ToolDefinitionError } from '../../errors/tool-definition-error';
import type { JsonSchema } from '../json-schema';
import { copyJsonValue, describeType } from './copy-json-value';
import type { SchemaCheck } from './schema-check';
import { buildTypeCheck, JSON_TYPES } from './type-checks';
import { isEqualJson } from './is-equal-json';
import { findInPlaceCycle } from './find-in-place-cycle';
import { resolveLocalRef } from './resolve-local-ref';

/** How a schema is compiled. */
export interface CompileSchemaOptions {
  /** The schema came from outside (an MCP server): its patterns and formats run in a linear-time engine. */
  untrusted?: boolean;
}

/** Compilation context: the root (for local `$ref`s) and the checks built so far (for recursion). */
export interface CompileContext {
  root: JsonSchema;
  refs: Map<string, SchemaCheck>;
  options: CompileSchemaOptions;
  compile(schema: unknown, pointer: string): SchemaCheck;
}

const acceptCopy: SchemaCheck = (value, path, depth, state) => copyJsonValue(value, path, depth, state);

/**
 * Compiles a JSON Schema into a coercing check (see `validateToolArgs` for the rules).
 *
 * @throws ToolDefinitionError when the schema cannot be compiled: a subschema that is not a schema, an
 * unknown type, a `$ref` that is not local, or a cycle that applies the schema to the same value again
 * without consuming any of it (see {@link findInPlaceCycle}), which would recurse forever on every call.
 */
export function compileSchemaCheck(
  schema: JsonSchema | boolean,
  options: CompileSchemaOptions = {},
): SchemaCheck {
  const root = typeof schema === 'object' && schema !== null ? schema : {};
  const cycle = findInPlaceCycle(schema);
  if (cycle !== null) {
    throw new ToolDefinitionError(
      `The schema loops back on itself without descending into the value (${cycle.join(' → ')}), so checking any value would never end. ` +
        'A $ref reached only through allOf, anyOf, oneOf, not, if/then/else or dependentSchemas applies the schema to the same value again; ' +
        'put the recursion under properties, items or additionalProperties, or remove that $ref.',
    );
  }
  const context: CompileContext = {
    root,
    refs: new Map(),
    options,
    compile: (node, pointer) => compileNode(node, pointer, context),
  };
  return compileNode(schema, '#', context);
}

function compileNode(schema: unknown, pointer: string, context: CompileContext): SchemaCheck {
  if (schema === true || schema === undefined) return acceptCopy;
  if (schema === false) {
    return (value, path, _depth, state) => {
      state.addIssue(path, 'is not allowed by the schema');
      return value;
    };
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new ToolDefinitionError(
      `The schema at '${pointer}' must be an object or a boolean, got ${describeType(schema)}.`,
    );
  }
  const node = schema as JsonSchema;
  if (typeof node.$ref === 'string') return compileRef(node.$ref, pointer, context);

  const steps: SchemaCheck[] = [];
  const types = readTypes(node, pointer);
  if (types !== null) steps.push(buildTypeCheck(node, types, pointer, context));
  else if (hasTypeKeywords(node)) steps.push(buildTypeCheck(node, null, pointer, context));
  if (Array.isArray(node.allOf)) steps.push(compileAllOf(node.allOf, pointer, context));
  if (Array.isArray(node.anyOf)) steps.push(compileAnyOf(node.anyOf, pointer, context, false));
  if (Array.isArray(node.oneOf)) steps.push(compileAnyOf(node.oneOf, pointer, context, true));
  if (node.not !== undefined) steps.push(compileNot(node.not, pointer, context));
  if (Array.isArray(node.enum)) steps.push(compileEnum(node.enum));
  if ('const' in node) steps.push(compileConst(node.const));
  if (steps.length === 0) return acceptCopy;
  if (steps.length === 1) return steps[0];
  return (value, path, depth, state) => {
    let current = value;
    for (const step of steps) {
      const before = state.issues.length + state.overflow;
      current = step(current, path, depth, state);
      if (state.issues.length + state.overflow !== before) return current;
    }
    return current;
  };
}

function readTypes(node: JsonSchema, pointer: string): string[] | null {
  if (node.type === undefined) {
    if (
      node.properties !== undefined ||
      node.required !== undefined ||
      node.additionalProperties !== undefined
    ) {
      return ['object'];
    }
    if (node.items !== undefined || node.prefixItems !== undefined) return ['array'];
    return null;
  }
  const types = Array.isArray(node.type) ? node.type : [node.type];
  for (const type of types) {
    if (typeof type !== 'string' || !JSON_TYPES.has(type)) {
      throw new ToolDefinitionError(
        `The schema at '${pointer}' has an unknown type ${JSON.stringify(type)}; use one of ${[...JSON_TYPES].join(', ')}.`,
      );
    }
  }
  return types;
}

function hasTypeKeywords(node: JsonSchema): boolean {
  return (
    node.minLength !== undefined ||
    node.maxLength !== undefined ||
    node.pattern !== undefined ||
    node.format !== undefined ||
    node.minimum !== undefined ||
    node.maximum !== undefined ||
    node.exclusiveMinimum !== undefined ||
    node.exclusiveMaximum !== undefined ||
    node.multipleOf !== undefined
  );
}

function compileRef(reference: string, pointer: string, context: CompileContext): SchemaCheck {
  const cached = context.refs.get(reference);
  if (cached) return cached;
  const target = resolveLocalRef(context.root, reference);
  if (target === undefined) {
    throw new ToolDefinitionError(
      `The schema at '${pointer}' refers to '${reference}', which is not a local definition; inline it or add it under $defs.`,
    );
  }
  let compiled: SchemaCheck | undefined;
  const lazy: SchemaCheck = (value, path, depth, state) => {
    if (depth > state.limits.maxDepth) {
      state.addIssue(path, `is nested deeper than ${state.limits.maxDepth} levels`);
      return value;
    }
    compiled ??= context.compile(target, reference);
    return compiled(value, path, depth, state);
  };
  context.refs.set(reference, lazy);
  return lazy;
}

function compileAllOf(options: unknown[], pointer: string, context: CompileContext): SchemaCheck {
  const checks = options.map((option, index) => context.compile(option, `${pointer}/allOf/${index}`));
  return (value, path, depth, state) => {
    let current = value;
    for (const check of checks) current = check(current, path, depth, state);
    return current;
  };
}

function compileAnyOf(
  options: unknown[],
  pointer: string,
  context: CompileContext,
  exactlyOne: boolean,
): SchemaCheck {
  const keyword = exactlyOne ? 'oneOf' : 'anyOf';
  const checks = options.map((option, index) => context.compile(option, `${pointer}/${keyword}/${index}`));
  // With coercion a scalar can match several branches (`"2"` as an integer and as a string); the branch
  // that accepts it unchanged wins, so coercion never makes a valid value ambiguous or changes it needlessly.
  return (value, path, depth, state) => {
    const scalar = value === null || typeof value !== 'object';
    let chosen: { result: unknown; nodes: number; exact: boolean } | null = null;
    let matches = 0;
    let exactMatches = 0;
    const messages: string[] = [];
    for (const check of checks) {
      const trial = state.startTrial();
      const result = check(value, path, depth, trial);
      if (trial.issues.length === 0) {
        const exact = scalar && Object.is(result, value);
        matches += 1;
        if (exact) exactMatches += 1;
        if (chosen === null || (exact && !chosen.exact)) chosen = { result, nodes: trial.nodes, exact };
        if (!exactlyOne && (exact || !scalar)) break;
      } else if (messages.length < 5) {
        messages.push(summarizeIssues(trial.issues));
      }
    }
    if (chosen === null) {
      state.addIssue(path, `must match one of the allowed schemas (${messages.join(' | ')})`);
      return value;
    }
    if (exactlyOne && matches > 1 && !(scalar && exactMatches === 1)) {
      state.addIssue(
        path,
        `must match exactly one allowed schema, matched ${exactMatches > 1 ? exactMatches : matches}`,
      );
      return value;
    }
    state.nodes = chosen.nodes;
    return chosen.result;
  };
}

function compileNot(schema: unknown, pointer: string, context: CompileContext): SchemaCheck {
  const check = context.compile(schema, `${pointer}/not`);
  return (value, path, depth, state) => {
    const trial = state.startTrial();
    trial.nodes = 0;
    check(value, path, depth, trial);
    if (trial.issues.length === 0) state.addIssue(path, 'must not match the excluded schema');
    return value;
  };
}

function compileEnum(allowed: unknown[]): SchemaCheck {
  const primitives = new Set(allowed.filter((item) => item === null || typeof item !== 'object'));
  const objects = allowed.filter((item) => item !== null && typeof item === 'object');
  const listing = allowed.map((item) => JSON.stringify(item)).join(', ');
  return (value, path, _depth, state) => {
    if (value !== null && typeof value === 'object') {
      if (!objects.some((item) => isEqualJson(item, value)))
        state.addIssue(path, `must be one of ${listing}`);
    } else if (!primitives.has(value)) {
      state.addIssue(path, `must be one of ${listing}`);
    }
    return value;
  };
}

function compileConst(expected: unknown): SchemaCheck {
  const text = JSON.stringify(expected);
  return (value, path, _depth, state) => {
    if (!isEqualJson(expected, value)) state.addIssue(path, `must equal ${text}`);
    return value;
  };
}

const MAX_BRANCH_MESSAGE = 200;

/** One branch's problems in a bounded message (nested alternatives would otherwise grow it exponentially). */
function summarizeIssues(issues: readonly { path: string; message: string }[]): string {
  const text = issues
    .slice(0, 3)
    .map((issue) => `${issue.path || 'value'} ${issue.message}`)
    .join(', ');
  return text.length > MAX_BRANCH_MESSAGE ? `${text.slice(0, MAX_BRANCH_MESSAGE)}…` : text;
}
