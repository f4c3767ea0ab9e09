import { ToolDefinitionError } from '../../errors/tool-definition-error';
import type { JsonSchema } from '../json-schema';
import type { CompileContext } from './compile-schema-check';
import { describeType, isPlainRecord, setOwn, UNSAFE_KEYS } from './copy-json-value';
import type { PatternMatcher } from './compile-untrusted-pattern';
import { compilePatternAt } from './keyword-checks';
import type { SchemaCheck } from './schema-check';
import { joinPath } from './validation-state';

interface PropertyPlan {
  name: string;
  check: SchemaCheck;
  required: boolean;
  acceptsNull: boolean;
  hasDefault: boolean;
  defaultValue: unknown;
}

/**
 * Builds the check of an object schema: required properties, defaults (deep copies), `null` as "absent" for
 * optional properties that do not accept null, unknown fields, and the size keywords.
 */
export function buildObjectCheck(node: JsonSchema, pointer: string, context: CompileContext): SchemaCheck {
  const properties = isPlainRecord(node.properties) ? (node.properties as Record<string, unknown>) : {};
  const required = new Set(
    Array.isArray(node.required) ? node.required.filter((name) => typeof name === 'string') : [],
  );
  const plans: PropertyPlan[] = Object.keys(properties).map((name) => {
    const schema = properties[name];
    const record = isPlainRecord(schema) ? (schema as JsonSchema) : {};
    return {
      name,
      check: context.compile(schema, `${pointer}/properties/${name}`),
      required: required.has(name),
      acceptsNull: schemaAcceptsNull(record),
      hasDefault: record.default !== undefined,
      defaultValue: record.default,
    };
  });
  // Own keys only: `'constructor' in {}` is true, which silently dropped a required `constructor` field.
  const missingRequired = [...required].filter(
    (name) => !Object.prototype.hasOwnProperty.call(properties, name),
  );
  const declared = new Set(Object.keys(properties));
  const additional = node.additionalProperties;
  const closed = additional === false;
  const extraCheck =
    additional === undefined || additional === true
      ? context.compile(true, pointer)
      : context.compile(additional, `${pointer}/additionalProperties`);
  const allowedList = [...declared].join(', ');
  const patternChecks = isPlainRecord(node.patternProperties)
    ? Object.entries(node.patternProperties as Record<string, unknown>).map(([source, schema]) => ({
        pattern: buildKeyPattern(source, `${pointer}/patternProperties`, context.options.untrusted === true),
        check: context.compile(schema, `${pointer}/patternProperties/${source}`),
      }))
    : [];
  const { minProperties, maxProperties } = node;

  return (value, path, depth, state) => {
    if (!state.countNode(path)) return value;
    if (!isPlainRecord(value)) {
      state.addIssue(path, `must be an object, got ${describeType(value)}`);
      return value;
    }
    if (depth >= state.limits.maxDepth) {
      state.addIssue(path, `is nested deeper than ${state.limits.maxDepth} levels`);
      return value;
    }
    const result: Record<string, unknown> = {};
    for (const plan of plans) {
      const propertyPath = joinPath(path, plan.name);
      let item = Object.prototype.hasOwnProperty.call(value, plan.name) ? value[plan.name] : undefined;
      if (item === null && !plan.required && !plan.acceptsNull) item = undefined;
      if (item === undefined) {
        if (plan.hasDefault) setOwn(result, plan.name, structuredClone(plan.defaultValue));
        else if (plan.required) state.addIssue(propertyPath, 'is required');
        continue;
      }
      setOwn(result, plan.name, plan.check(item, propertyPath, depth + 1, state));
    }
    for (const name of missingRequired) {
      if (!Object.prototype.hasOwnProperty.call(value, name) || value[name] === undefined)
        state.addIssue(joinPath(path, name), 'is required');
      else setOwn(result, name, extraCheck(value[name], joinPath(path, name), depth + 1, state));
    }
    let count = plans.length;
    for (const key of Object.keys(value)) {
      if (declared.has(key) || required.has(key)) continue;
      const item = value[key];
      if (item === undefined) continue;
      const keyPath = joinPath(path, key);
      const patternMatch = patternChecks.find((entry) => entry.pattern.test(key));
      if (patternMatch && !UNSAFE_KEYS.has(key)) {
        count += 1;
        result[key] = patternMatch.check(item, keyPath, depth + 1, state);
        continue;
      }
      if (closed) {
        state.addIssue(
          keyPath,
          allowedList
            ? `is not an accepted field (accepted: ${allowedList})`
            : 'is not an accepted field (this tool takes no arguments here)',
        );
        continue;
      }
      if (UNSAFE_KEYS.has(key)) {
        state.addIssue(keyPath, `the key '${key}' is not accepted`);
        continue;
      }
      count += 1;
      result[key] = extraCheck(item, keyPath, depth + 1, state);
    }
    if (typeof minProperties === 'number' && Object.keys(result).length < minProperties) {
      state.addIssue(path, `must have at least ${minProperties} properties`);
    }
    if (typeof maxProperties === 'number' && count > maxProperties) {
      state.addIssue(path, `must have at most ${maxProperties} properties`);
    }
    return result;
  };
}

/**
 * Compiles a `patternProperties` key pattern: natively for our own schemas, with the linear-time engine for
 * untrusted ones.
 *
 * @throws ToolDefinitionError for an invalid pattern, or an untrusted one the linear-time engine refuses.
 */
function buildKeyPattern(source: string, pointer: string, untrusted: boolean): PatternMatcher {
  if (untrusted) return compilePatternAt(source, pointer);
  try {
    return new RegExp(source, 'u');
  } catch (error) {
    throw new ToolDefinitionError(
      `The patternProperties key at '${pointer}' is not a valid regular expression: ${source}`,
      { cause: error },
    );
  }
}

function schemaAcceptsNull(schema: JsonSchema): boolean {
  if (schema.type === 'null') return true;
  if (Array.isArray(schema.type) && schema.type.includes('null')) return true;
  if (schema.nullable === true) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  if ('const' in schema && schema.const === null) return true;
  const options = [
    ...(Array.isArray(schema.anyOf) ? schema.anyOf : []),
    ...(Array.isArray(schema.oneOf) ? schema.oneOf : []),
  ];
  return options.some((option) => isPlainRecord(option) && schemaAcceptsNull(option as JsonSchema));
}
