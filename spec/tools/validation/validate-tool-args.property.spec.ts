import fc from 'fast-check';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import type { JsonSchema } from '../../../lib/tools/json-schema';
import { classToJsonSchema } from '../../../lib/tools/schema/class-to-json-schema';
import { normalizeSchema } from '../../../lib/tools/schema/normalize-schema';
import type { DtoBinding } from '../../../lib/tools/validation/validate-dto-args';
import { validateToolArgs } from '../../../lib/tools/validation/validate-tool-args';
import { BookingRequest, GeoPoint, Trip } from '../../fixtures/dto/booking.dto';

const RUNS = { numRuns: 200 };

interface SchemaCase {
  label: string;
  schema: JsonSchema;
  dto?: DtoBinding;
  /** Whether a valid input comes back equal (no defaults to fill, no nulls to drop). */
  roundTrips: boolean;
}

const cases: SchemaCase[] = [
  {
    label: 'flat scalars',
    schema: normalizeSchema({
      type: 'object',
      properties: {
        a: { type: 'integer', minimum: -100, maximum: 100 },
        b: { type: 'number' },
        name: { type: 'string', minLength: 1, maxLength: 8 },
        flag: { type: 'boolean' },
      },
      required: ['a', 'b', 'name'],
    }),
    roundTrips: true,
  },
  {
    label: 'nested DTO as the whole object',
    schema: classToJsonSchema(Trip),
    dto: { whole: Trip },
    roundTrips: true,
  },
  {
    label: 'named DTO parameter',
    schema: normalizeSchema({
      type: 'object',
      properties: { booking: classToJsonSchema(BookingRequest) },
      required: ['booking'],
    }),
    dto: { properties: { booking: BookingRequest } },
    roundTrips: true,
  },
  {
    label: 'arrays',
    schema: normalizeSchema({
      type: 'object',
      properties: {
        rows: {
          type: 'array',
          maxItems: 4,
          items: {
            type: 'object',
            properties: { id: { type: 'integer', minimum: 0 }, label: { type: 'string', maxLength: 5 } },
            required: ['id'],
          },
        },
        codes: {
          type: 'array',
          uniqueItems: true,
          minItems: 1,
          maxItems: 3,
          items: { type: 'string', enum: ['x', 'y', 'z'] },
        },
        matrix: {
          type: 'array',
          items: { type: 'array', items: { type: 'number', minimum: 0, exclusiveMaximum: 1 } },
        },
      },
      required: ['rows', 'codes'],
    }),
    roundTrips: true,
  },
  {
    label: 'enums and const',
    schema: normalizeSchema({
      type: 'object',
      properties: {
        kind: { type: 'string', enum: ['single', 'double'] },
        level: { type: 'integer', enum: [-1, 0, 1] },
        exact: { const: 'fixed' },
        either: {
          anyOf: [
            { type: 'integer', minimum: 10 },
            { type: 'string', maxLength: 3 },
          ],
        },
      },
      required: ['kind', 'level', 'exact'],
    }),
    roundTrips: true,
  },
  {
    label: 'optional, nullable and defaulted fields',
    schema: normalizeSchema({
      type: 'object',
      properties: {
        maybe: { type: 'string' },
        nullable: { type: ['string', 'null'] },
        limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
        nested: { type: 'object', properties: { deep: { type: 'boolean', default: false } } },
      },
    }),
    roundTrips: false,
  },
  {
    label: 'type lists and alternatives',
    schema: normalizeSchema({
      type: 'object',
      properties: {
        either: { type: ['integer', 'string', 'null'] },
        flagOrText: { type: ['boolean', 'string'] },
        choice: { oneOf: [{ type: 'integer' }, { type: 'string', maxLength: 4 }] },
      },
      required: ['flagOrText'],
    }),
    roundTrips: true,
  },
  {
    label: 'open object',
    schema: normalizeSchema({ type: 'object', additionalProperties: true }),
    roundTrips: true,
  },
];

/** One code point per unit, skipping lone surrogates and the variation selectors class-validator does not count. */
const codePoint = fc
  .integer({ min: 0, max: 0x10ffff })
  .filter((point) => (point < 0xd800 || point > 0xdfff) && point !== 0xfe0e && point !== 0xfe0f)
  .map((point) => String.fromCodePoint(point));
const lowerWord = (maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength: 1, maxLength });

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  email: fc.tuple(lowerWord(10), lowerWord(10)).map(([user, host]) => `${user}@${host}.com`),
  uri: lowerWord(12).map((path) => `https://example.com/${path}`),
  uuid: fc.uuid(),
  'date-time': fc
    .date({
      min: new Date('1970-01-01T00:00:00Z'),
      max: new Date('2100-01-01T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((date) => date.toISOString()),
};

/** JSON data without the keys the validator refuses in open objects (`__proto__`, `constructor`, `prototype`). */
const safeJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => !Object.is(value, -0)),
    fc.string({ unit: codePoint, maxLength: 8 }),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(lowerWord(6), tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** Generates values the schema accepts (the subset of JSON Schema used above and by DTOs). */
function valuesOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if (Array.isArray(schema.anyOf)) return fc.oneof(...schema.anyOf.map(valuesOf));
  // The oneOf branches used here are disjoint, so a value of any branch matches exactly one.
  if (Array.isArray(schema.oneOf)) return fc.oneof(...schema.oneOf.map(valuesOf));
  if (Array.isArray(schema.type))
    return fc.oneof(...schema.type.map((type) => valuesOf({ ...schema, type })));
  switch (schema.type) {
    case 'string': {
      if (typeof schema.format === 'string') return FORMATS[schema.format];
      const lengths = { minLength: schema.minLength ?? 0, maxLength: schema.maxLength ?? 12 };
      if (typeof schema.pattern === 'string') {
        return fc
          .stringMatching(new RegExp(schema.pattern))
          .filter((text) => text.length >= lengths.minLength && text.length <= lengths.maxLength);
      }
      return fc.string({ unit: codePoint, ...lengths });
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc
        .double({
          min: schema.minimum ?? -1e9,
          max: schema.maximum ?? 1e9,
          noNaN: true,
          noDefaultInfinity: true,
        })
        .filter((value) => !Object.is(value, -0))
        .filter((value) => schema.exclusiveMinimum === undefined || value > schema.exclusiveMinimum)
        .filter((value) => schema.exclusiveMaximum === undefined || value < schema.exclusiveMaximum);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = valuesOf((schema.items as JsonSchema | undefined) ?? {});
      const sizes = { minLength: schema.minItems ?? 0, maxLength: schema.maxItems ?? 4 };
      return schema.uniqueItems
        ? fc.uniqueArray(items, { ...sizes, selector: (item) => JSON.stringify(item) })
        : fc.array(items, sizes);
    }
    case 'object': {
      const properties = schema.properties ?? {};
      if (Object.keys(properties).length === 0 && schema.additionalProperties !== false) {
        return fc.dictionary(lowerWord(6), safeJson, { maxKeys: 5 });
      }
      const model = Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [name, valuesOf(property)]),
      );
      return fc.record(model, { requiredKeys: schema.required ?? [] });
    }
    default:
      return safeJson;
  }
}

const dangerousKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
);
const anyKey = fc.oneof(
  dangerousKey,
  lowerWord(8),
  fc.constantFrom('a', 'b', 'name', 'booking', 'location', 'guests', 'rows', 'kind', 'start', 'lat'),
);
const pollution = fc.constantFrom<unknown>(
  { polluted: 'yes' },
  { prototype: { polluted: 'yes' } },
  'yes',
  null,
  [{ polluted: 'yes' }],
);

/** JSON-ish data whose objects may hold own `__proto__`/`constructor`/`prototype` keys (as JSON.parse makes them). */
const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown; object: Record<string, unknown> }>(
  (tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.jsonValue({ maxDepth: 2 }),
      pollution,
      fc.constantFrom('2', '1.0', '', ' true ', 'yes', '-0', '1e3', 'NaN'),
      tie('object'),
      fc.array(tie('value'), { maxLength: 4 }),
    ),
    object: fc.array(fc.tuple(anyKey, tie('value')), { maxLength: 6 }).map((entries) => {
      const object: Record<string, unknown> = {};
      for (const [key, value] of entries)
        Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      return object;
    }),
  }),
).value;

const arbitraryInput = fc.oneof(
  hostileJson,
  fc.anything({
    withBigInt: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withObjectString: true,
    withSparseArray: true,
    withTypedArray: true,
    withUnicodeString: true,
  }),
);

/** Valid values, sometimes with a hostile extra key mixed in at the root. */
function objectsNear(schema: JsonSchema): fc.Arbitrary<unknown> {
  return fc.oneof(
    valuesOf(schema),
    fc.tuple(valuesOf(schema), dangerousKey, pollution).map(([value, key, extra]) => {
      const copy = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
      Object.defineProperty(copy, key, {
        value: extra,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return copy;
    }),
  );
}

function collectObjects(value: unknown, into: Set<object> = new Set()): Set<object> {
  if (typeof value !== 'object' || value === null || into.has(value)) return into;
  into.add(value);
  for (const key of Object.keys(value)) collectObjects((value as Record<string, unknown>)[key], into);
  return into;
}

function runValidator(
  input: unknown,
  schemaCase: SchemaCase,
): { result?: Record<string, unknown>; error?: unknown } {
  try {
    return { result: validateToolArgs(input, schemaCase.schema, { dto: schemaCase.dto, toolName: 'probe' }) };
  } catch (error) {
    return { error };
  }
}

/** The prototypes a validated result may use: plain data and the DTO classes it rebuilds. */
const PLAIN_PROTOTYPES = new Set<object | null>([
  null,
  Object.prototype,
  Array.prototype,
  Trip.prototype,
  GeoPoint.prototype,
  BookingRequest.prototype,
]);

function snapshotPrototype(): string[] {
  return Object.getOwnPropertyNames(Object.prototype).sort();
}

describe('validateToolArgs (properties)', () => {
  const prototypeBefore = snapshotPrototype();

  afterEach(() => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(snapshotPrototype()).toEqual(prototypeBefore);
  });

  it('generates hostile objects with own __proto__, constructor and prototype keys', () => {
    const samples = fc.sample(hostileJson, { numRuns: 300, seed: 7 });
    const keys = new Set(
      samples.flatMap((sample) => [...collectObjects(sample)].flatMap((object) => Object.keys(object))),
    );
    expect([...keys]).toEqual(expect.arrayContaining(['__proto__', 'constructor', 'prototype']));
  });

  describe.each(cases)('with $label', (schemaCase) => {
    it('never throws anything but ToolValidationError, whatever it is given', () => {
      fc.assert(
        fc.property(fc.oneof(arbitraryInput, objectsNear(schemaCase.schema)), (input) => {
          const { error } = runValidator(input, schemaCase);
          if (error !== undefined && !(error instanceof ToolValidationError)) throw error;
          if (error instanceof ToolValidationError) {
            expect(error.issues.length).toBeGreaterThan(0);
            for (const issue of error.issues)
              expect(typeof issue.path === 'string' && typeof issue.message === 'string').toBe(true);
          }
        }),
        RUNS,
      );
    });

    it('never mutates its input and shares no object with it', () => {
      fc.assert(
        fc.property(fc.oneof(hostileJson, objectsNear(schemaCase.schema)), (input) => {
          const before = structuredClone(input);
          const keysBefore = JSON.stringify(collectKeys(input));
          const { result } = runValidator(input, schemaCase);
          expect(input).toEqual(before);
          expect(JSON.stringify(collectKeys(input))).toBe(keysBefore);
          if (result !== undefined) {
            const inputObjects = collectObjects(input);
            for (const object of collectObjects(result)) expect(inputObjects.has(object)).toBe(false);
          }
        }),
        RUNS,
      );
    });

    it('accepts every value generated from the schema', () => {
      fc.assert(
        fc.property(valuesOf(schemaCase.schema), (input) => {
          const { result, error } = runValidator(input, schemaCase);
          if (error !== undefined) throw error;
          if (schemaCase.roundTrips) expect(result).toEqual(input);
          if (schemaCase.dto?.whole) expect(result).toBeInstanceOf(schemaCase.dto.whole);
        }),
        RUNS,
      );
    });

    it('never pollutes a prototype, and keeps every object it returns on a plain prototype', () => {
      fc.assert(
        fc.property(fc.oneof(hostileJson, objectsNear(schemaCase.schema)), (input) => {
          const { result } = runValidator(input, schemaCase);
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
          expect(Object.prototype).not.toHaveProperty('polluted');
          for (const object of collectObjects(result))
            expect(PLAIN_PROTOTYPES.has(Object.getPrototypeOf(object) as object | null)).toBe(true);
        }),
        RUNS,
      );
    });
  });
});

/** Every own key path of a value, including `__proto__` keys, for a mutation check that toEqual might miss. */
function collectKeys(value: unknown, path = '', into: string[] = []): string[] {
  if (typeof value !== 'object' || value === null) return into;
  for (const key of Object.keys(value)) {
    into.push(`${path}/${key}`);
    collectKeys((value as Record<string, unknown>)[key], `${path}/${key}`, into);
  }
  return into;
}
