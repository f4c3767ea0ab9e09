import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { JsonSchema } from '../json-schema';
import { classToJsonSchema } from '../schema/class-to-json-schema';
import { getDtoModel } from '../schema/dto-model';
import type { DtoPropertyModel } from '../schema/dto-model';

/** What the derived JSON Schema of a DTO class already enforces of its class-validator constraints. */
export interface DtoSchemaCoverage {
  /**
   * Every constraint of the class and of the nested DTOs it validates has an exact JSON Schema form, so
   * arguments the derived schema accepted pass class-validator too: the class-validator pass can be skipped.
   */
  readonly complete: boolean;
  /** Why the coverage is incomplete (the first constraint found without an exact schema form). */
  readonly reason: string | undefined;
  /**
   * Some covered constraint counts string length or runs a pattern: validator.js counts a character followed
   * by U+FE0E/U+FE0F as one and class-validator's patterns run without the `u` flag, so strings holding such
   * selectors or surrogates still go to class-validator (see {@link needsClassValidatorFor}).
   */
  readonly checksStrings: boolean;
}

const cache = new WeakMap<Function, DtoSchemaCoverage>();

/**
 * Decides, once per DTO class (cached), whether its derived JSON Schema expresses every class-validator
 * constraint exactly: types, ranges, lengths, patterns without flags, enums, array sizes, optional and nested
 * DTOs. Custom validators, groups, `always`, `validateIf`, `@ValidateIf`, formats, dates and initializers
 * the schema cannot carry as defaults make it incomplete.
 */
export function getDtoSchemaCoverage(dtoClass: Function): DtoSchemaCoverage {
  return cache.get(dtoClass) ?? coverageOf(dtoClass, new Set());
}

/**
 * Whether validated arguments of a covered DTO must still go through class-validator: only strings whose
 * length or pattern check could differ between JSON Schema and validator.js (surrogates, variation selectors).
 */
export function needsClassValidatorFor(coverage: DtoSchemaCoverage, value: unknown): boolean {
  return !coverage.complete || (coverage.checksStrings && holdsUnevenString(value, 0));
}

// Characters on which JSON Schema (code points, `u` patterns) and validator.js (selectors folded, no `u`) differ.
const UNEVEN_CHARACTERS = /[\uD800-\uDFFF\uFE0E\uFE0F]/;

function holdsUnevenString(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return UNEVEN_CHARACTERS.test(value);
  if (typeof value !== 'object' || value === null) return false;
  // Deeper than any validated argument can be: let class-validator decide.
  if (depth > 64) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsUnevenString(item, depth + 1)) return true;
    return false;
  }
  for (const key of Object.keys(value)) {
    if (holdsUnevenString((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}

function coverageOf(dtoClass: Function, inProgress: Set<Function>): DtoSchemaCoverage {
  const cached = cache.get(dtoClass);
  if (cached) return cached;
  // A recursive DTO: the class being decided is assumed covered; its own verdict settles the question.
  if (inProgress.has(dtoClass)) return ASSUMED_COVERED;
  inProgress.add(dtoClass);
  let coverage: DtoSchemaCoverage;
  try {
    coverage = decide(dtoClass, inProgress);
  } catch (error) {
    coverage = incomplete(`its schema could not be derived (${(error as Error).message})`, false);
  } finally {
    inProgress.delete(dtoClass);
  }
  // Verdicts reached while an enclosing class was still assumed covered are final only at the outermost call.
  if (inProgress.size === 0 || !coverage.complete) cache.set(dtoClass, coverage);
  return coverage;
}

const ASSUMED_COVERED: DtoSchemaCoverage = Object.freeze({
  complete: true,
  reason: undefined,
  checksStrings: false,
});

function incomplete(reason: string, checksStrings: boolean): DtoSchemaCoverage {
  return Object.freeze({ complete: false, reason, checksStrings });
}

function decide(dtoClass: Function, inProgress: Set<Function>): DtoSchemaCoverage {
  const schema = classToJsonSchema(dtoClass);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const initial = readInitializers(dtoClass);
  let checksStrings = false;
  for (const property of getDtoModel(dtoClass).properties.values()) {
    const where = `${dtoClass.name}.${property.name}`;
    const propertySchema = resolve(properties[property.name], schema);
    if (!propertySchema) return incomplete(`${where} has no schema`, checksStrings);
    if (initial?.[property.name] !== undefined && propertySchema.default === undefined) {
      return incomplete(`${where} has an initializer that is no JSON default`, checksStrings);
    }
    for (const validation of property.validations) {
      const verdict = coversValidation(property, validation, propertySchema, schema, inProgress);
      if (verdict === false) {
        return incomplete(
          `${where}: @${validation.name ?? validation.type} has no exact schema form`,
          checksStrings,
        );
      }
      if (typeof verdict === 'object') {
        if (!verdict.complete) return incomplete(verdict.reason ?? where, checksStrings);
        checksStrings ||= verdict.checksStrings;
      } else if (verdict === 'strings') {
        checksStrings = true;
      }
    }
  }
  return Object.freeze({ complete: true, reason: undefined, checksStrings });
}

type Verdict = boolean | 'strings' | DtoSchemaCoverage;

function coversValidation(
  property: DtoPropertyModel,
  validation: ValidationMetadata,
  propertySchema: JsonSchema,
  root: JsonSchema,
  inProgress: Set<Function>,
): Verdict {
  if (validation.always !== undefined || (validation.groups?.length ?? 0) > 0) return false;
  if ((validation as { validateIf?: unknown }).validateIf !== undefined) return false;
  switch (validation.type) {
    case 'conditionalValidation':
      // @IsOptional (skip when null or undefined) matches a property left out of `required`; @ValidateIf does not.
      return validation.name === 'isOptional';
    case 'whitelistValidation':
      return true;
    case 'isDefined':
      return isNonNull(propertySchema);
    case 'nestedValidation':
      if (!property.nestedClass) return false;
      if (validation.each && propertySchema.type !== 'array') return false;
      return coverageOf(property.nestedClass, inProgress);
    case 'customValidation': {
      if (validation.each && propertySchema.type !== 'array') return false;
      const target = validation.each ? resolve(propertySchema.items as JsonSchema, root) : propertySchema;
      return target ? coversConstraint(validation, target) : false;
    }
    default:
      return false;
  }
}

/** Whether a built-in constraint accepts everything its property schema accepts (after the schema's coercion). */
function coversConstraint(validation: ValidationMetadata, schema: JsonSchema): Verdict {
  const [first, second] = (validation.constraints ?? []) as unknown[];
  const numeric = schema.type === 'integer' || schema.type === 'number';
  const text = schema.type === 'string';
  switch (validation.name) {
    case 'isString':
      return text;
    case 'isInt':
      return schema.type === 'integer';
    case 'isNumber':
      return numeric && (first as { maxDecimalPlaces?: unknown } | undefined)?.maxDecimalPlaces === undefined;
    case 'isBoolean':
      return schema.type === 'boolean';
    case 'isArray':
      return schema.type === 'array';
    case 'isObject':
      return schema.type === 'object';
    case 'isIn':
      return enumWithin(schema, Array.isArray(first) ? first : []);
    case 'isEnum':
      return enumWithin(schema, typeof first === 'object' && first !== null ? Object.values(first) : []);
    case 'equals':
      return enumWithin(schema, [first]);
    case 'isNotEmpty':
      return text ? atLeast(schema.minLength, 1) : isNonNull(schema);
    case 'min':
      return numeric && (atLeast(schema.minimum, first) || atLeast(schema.exclusiveMinimum, first));
    case 'max':
      return numeric && (atMost(schema.maximum, first) || atMost(schema.exclusiveMaximum, first));
    case 'isPositive':
      return numeric && (atLeast(schema.exclusiveMinimum, 0) || greaterThan(schema.minimum, 0));
    case 'isNegative':
      return numeric && (atMost(schema.exclusiveMaximum, 0) || lessThan(schema.maximum, 0));
    case 'isLength':
      return text && lengthWithin(schema, first, second) ? 'strings' : false;
    case 'minLength':
      return text && lengthWithin(schema, first, undefined) ? 'strings' : false;
    case 'maxLength':
      return text && lengthWithin(schema, undefined, first) ? 'strings' : false;
    case 'matches':
      return text && patternMatches(schema, first, second) ? 'strings' : false;
    case 'arrayMinSize':
      return schema.type === 'array' && atLeast(schema.minItems, first);
    case 'arrayMaxSize':
      return schema.type === 'array' && atMost(schema.maxItems, first);
    // @ArrayUnique keeps its identifier function in a closure: what it compares cannot be known here.
    default:
      return false;
  }
}

function isNonNull(schema: JsonSchema): boolean {
  return (typeof schema.type === 'string' && schema.type !== 'null') || typeof schema.$ref === 'string';
}

/** The schema accepts only primitive values that class-validator's `===` list accepts too. */
function enumWithin(schema: JsonSchema, accepted: readonly unknown[]): boolean {
  const allowed = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
  if (!allowed) return false;
  return allowed.every(
    (value) => (value === null || typeof value !== 'object') && accepted.some((item) => item === value),
  );
}

function lengthWithin(schema: JsonSchema, minimum: unknown, maximum: unknown): boolean {
  const minimumHolds = minimum === undefined || minimum === 0 || atLeast(schema.minLength, minimum);
  return minimumHolds && (maximum === undefined || atMost(schema.maxLength, maximum));
}

function patternMatches(schema: JsonSchema, pattern: unknown, modifiers: unknown): boolean {
  let source: string;
  if (pattern instanceof RegExp) {
    if (pattern.flags !== '') return false;
    source = pattern.source;
  } else if (typeof pattern === 'string' && !modifiers) {
    source = pattern;
  } else {
    return false;
  }
  // `\p{…}` and `\u{…}` mean something else without the `u` flag class-validator runs patterns with.
  return schema.pattern === source && !/\\[pPu]\{|\\[pP]/.test(source);
}

function atLeast(value: unknown, bound: unknown): boolean {
  return typeof value === 'number' && typeof bound === 'number' && value >= bound;
}

function atMost(value: unknown, bound: unknown): boolean {
  return typeof value === 'number' && typeof bound === 'number' && value <= bound;
}

function greaterThan(value: unknown, bound: number): boolean {
  return typeof value === 'number' && value > bound;
}

function lessThan(value: unknown, bound: number): boolean {
  return typeof value === 'number' && value < bound;
}

/** Follows a local `$ref` (`#` or `#/$defs/Name`) of a derived schema. */
function resolve(schema: JsonSchema | undefined, root: JsonSchema): JsonSchema | undefined {
  if (!schema || typeof schema.$ref !== 'string') return schema;
  if (schema.$ref === '#') return root;
  const name = /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1];
  return name ? (root.$defs as Record<string, JsonSchema> | undefined)?.[name] : undefined;
}

function readInitializers(dtoClass: Function): Record<string, unknown> | undefined {
  try {
    return new (dtoClass as new () => Record<string, unknown>)();
  } catch {
    return undefined;
  }
}
