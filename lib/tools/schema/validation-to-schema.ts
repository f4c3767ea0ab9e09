import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { JsonSchema } from '../json-schema';

const FORMATS: Record<string, string> = {
  isEmail: 'email',
  isUrl: 'uri',
  isUUID: 'uuid',
  isUuid: 'uuid',
  isDateString: 'date-time',
  isISO8601: 'date-time',
  isIP: 'ipv4',
};

/** Adds what one class-validator decorator says to a property schema (returns a new schema). */
export function applyValidation(
  schema: JsonSchema,
  validation: ValidationMetadata,
  _where: string,
): JsonSchema {
  const next: JsonSchema = { ...schema };
  const constraints = validation.constraints ?? [];
  switch (validation.name) {
    case 'isString':
      return retype(next, 'string');
    case 'isInt':
      return retype(next, 'integer');
    case 'isNumber':
    case 'isNumberString':
      return validation.name === 'isNumber'
        ? retype(next, next.type === 'integer' ? 'integer' : 'number')
        : retype(next, 'string');
    case 'isBoolean':
      return retype(next, 'boolean');
    case 'isArray':
      return next.type === 'array' ? next : { ...retype(next, 'array'), items: next.items ?? {} };
    case 'isObject':
      return next.type === 'object' ? next : { ...retype(next, 'object') };
    case 'isDate':
      return { ...retype(next, 'string'), format: 'date-time' };
    case 'isEnum': {
      const values = Array.isArray(constraints[1])
        ? (constraints[1] as unknown[])
        : enumValues(constraints[0]);
      return withEnum(next, values);
    }
    case 'isIn':
      return withEnum(next, constraints[0] as unknown[]);
    case 'equals':
      return { ...next, const: constraints[0] };
    case 'isNotEmpty':
      return next.type === 'string' ? { ...next, minLength: Math.max(1, next.minLength ?? 0) } : next;
    case 'min':
      return { ...next, minimum: constraints[0] as number };
    case 'max':
      return { ...next, maximum: constraints[0] as number };
    case 'isPositive':
      return { ...next, exclusiveMinimum: 0 };
    case 'isNegative':
      return { ...next, exclusiveMaximum: 0 };
    case 'isLength': {
      const [minimum, maximum] = constraints as [number | undefined, number | undefined];
      if (typeof minimum === 'number' && minimum > 0) next.minLength = minimum;
      if (typeof maximum === 'number') next.maxLength = maximum;
      return next;
    }
    case 'minLength':
      return { ...next, minLength: constraints[0] as number };
    case 'maxLength':
      return { ...next, maxLength: constraints[0] as number };
    case 'matches': {
      const pattern = constraints[0];
      // Flags such as `i` have no JSON Schema form; class-validator still enforces those patterns.
      if (pattern instanceof RegExp && !/[ims]/.test(pattern.flags))
        return { ...next, pattern: pattern.source };
      if (typeof pattern === 'string' && !constraints[1]) return { ...next, pattern };
      return next;
    }
    case 'arrayMinSize':
      return { ...next, minItems: constraints[0] as number };
    case 'arrayMaxSize':
      return { ...next, maxItems: constraints[0] as number };
    case 'arrayUnique':
      return { ...next, uniqueItems: true };
    default: {
      const format = FORMATS[validation.name ?? ''];
      if (format) return { ...retype(next, 'string'), format };
      return next;
    }
  }
}

function retype(schema: JsonSchema, type: string): JsonSchema {
  const next = { ...schema, type };
  if (type !== 'array') delete next.items;
  return next;
}

function enumValues(entity: unknown): unknown[] {
  if (typeof entity !== 'object' || entity === null) return [];
  const record = entity as Record<string, unknown>;
  // Numeric TypeScript enums carry reverse mappings ("0": "Low"); keep only the real members.
  return Object.keys(record)
    .filter(
      (key) =>
        !(
          typeof record[key] === 'string' &&
          typeof record[record[key] as string] === 'number' &&
          /^\d+$/.test(key)
        ),
    )
    .map((key) => record[key]);
}

function withEnum(schema: JsonSchema, values: unknown[]): JsonSchema {
  const next: JsonSchema = { ...schema, enum: [...values] };
  if (values.length > 0 && values.every((value) => typeof value === 'string')) next.type = 'string';
  else if (values.length > 0 && values.every((value) => Number.isInteger(value))) next.type = 'integer';
  else if (values.length > 0 && values.every((value) => typeof value === 'number')) next.type = 'number';
  else delete next.type;
  return next;
}
