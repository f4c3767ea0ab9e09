import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import type { JsonSchema } from '../../../lib/tools/json-schema';
import { classToJsonSchema } from '../../../lib/tools/schema/class-to-json-schema';
import {
  prepareToolArgs,
  validatePreparedToolArgs,
  validateToolArgs,
} from '../../../lib/tools/validation/validate-tool-args';
import { BookingRequest, EvenBox, GeoPoint, Trip } from '../../fixtures/dto/booking.dto';

const addSchema: JsonSchema = {
  type: 'object',
  properties: { a: { type: 'integer' }, b: { type: 'integer' } },
  required: ['a', 'b'],
  additionalProperties: false,
};

function issuesOf(run: () => unknown): { path: string; message: string }[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolValidationError);
    return [...(error as ToolValidationError).issues];
  }
  throw new Error('expected a ToolValidationError');
}

describe('validateToolArgs', () => {
  describe('coercion', () => {
    it('turns integer strings into integers and integral floats into integers', () => {
      expect(validateToolArgs({ a: '2', b: 3.0 }, addSchema)).toEqual({ a: 2, b: 3 });
      expect(validateToolArgs({ a: ' -7 ', b: '+4' }, addSchema)).toEqual({ a: -7, b: 4 });
    });

    it('rejects "1.0", "", non-integral floats and booleans for integers', () => {
      for (const bad of ['1.0', '', '1e3', 1.5, true, '0x10', 'NaN']) {
        const issues = issuesOf(() => validateToolArgs({ a: bad, b: 1 }, addSchema));
        expect(issues).toEqual([{ path: 'a', message: expect.stringMatching(/^must be an integer/) }]);
      }
    });

    it('turns decimal strings into numbers but never into a string', () => {
      const schema: JsonSchema = {
        type: 'object',
        properties: { x: { type: 'number' }, s: { type: 'string' } },
      };
      expect(validateToolArgs({ x: '-1.5e2' }, schema)).toEqual({ x: -150 });
      expect(issuesOf(() => validateToolArgs({ s: 5 }, schema))).toEqual([
        { path: 's', message: 'must be a string, got integer' },
      ]);
      expect(issuesOf(() => validateToolArgs({ x: 'Infinity' }, schema))[0].path).toBe('x');
    });

    it('turns true/false/yes/no/1/0 strings into booleans and nothing else', () => {
      const schema: JsonSchema = { type: 'object', properties: { flag: { type: 'boolean' } } };
      const cases: [unknown, boolean][] = [
        ['true', true],
        ['FALSE', false],
        ['yes', true],
        ['no', false],
        ['1', true],
        ['0', false],
        [true, true],
      ];
      for (const [input, expected] of cases)
        expect(validateToolArgs({ flag: input }, schema)).toEqual({ flag: expected });
      for (const bad of ['maybe', 1, 0, 'on?', '']) {
        expect(issuesOf(() => validateToolArgs({ flag: bad }, schema))[0].message).toMatch(
          /must be a boolean/,
        );
      }
    });

    it('treats null for an optional property as absent and fills its default', () => {
      const schema: JsonSchema = {
        type: 'object',
        properties: {
          q: { type: 'string' },
          limit: { type: 'integer', default: 5 },
          note: { type: 'string' },
        },
        required: ['q'],
        additionalProperties: false,
      };
      expect(validateToolArgs({ q: 'x', limit: null, note: null }, schema)).toEqual({ q: 'x', limit: 5 });
    });

    it('keeps null where the property accepts null, and rejects null for a required property', () => {
      const schema: JsonSchema = {
        type: 'object',
        properties: { q: { type: 'string' }, maybe: { type: ['string', 'null'] } },
        required: ['q'],
      };
      expect(validateToolArgs({ q: 'x', maybe: null }, schema)).toEqual({ q: 'x', maybe: null });
      expect(issuesOf(() => validateToolArgs({ q: null }, schema))).toEqual([
        { path: 'q', message: 'must be a string, got null' },
      ]);
    });

    it('fills defaults with deep copies', () => {
      const schema: JsonSchema = { type: 'object', properties: { tags: { type: 'array', default: ['a'] } } };
      const first = validateToolArgs({}, schema);
      (first.tags as string[]).push('mutated');
      expect(validateToolArgs({}, schema)).toEqual({ tags: ['a'] });
    });
  });

  describe('errors', () => {
    it('lists every problem with its path', () => {
      const schema = classToJsonSchema(Trip);
      const issues = issuesOf(() =>
        validateToolArgs(
          {
            name: 'x',
            start: { lat: 200, lon: 'east' },
            waypoints: [{ lat: 1, lon: 2, evil: 1 }],
            extra: true,
          },
          schema,
        ),
      );
      expect(issues).toEqual(
        expect.arrayContaining([
          { path: 'name', message: 'must have at least 2 characters' },
          { path: 'start.lat', message: 'must be <= 90' },
          { path: 'start.lon', message: 'must be a number, got the string "east"' },
          { path: 'waypoints.0.evil', message: expect.stringContaining('is not an accepted field') },
          { path: 'extra', message: expect.stringContaining('is not an accepted field') },
        ]),
      );
      expect(issues).toHaveLength(5);
    });

    it('names the tool and each path in the message', () => {
      expect(() =>
        validateToolArgs(
          { booking: { guests: 0 } },
          { type: 'object', properties: { booking: classToJsonSchema(BookingRequest) } },
          { toolName: 'book_hotel' },
        ),
      ).toThrow(
        "Invalid arguments for tool 'book_hotel': booking.location: is required; booking.guests: must be >= 1",
      );
    });

    it('reports missing required fields and unknown fields of a closed root', () => {
      expect(issuesOf(() => validateToolArgs({ c: 1 }, addSchema))).toEqual([
        { path: 'a', message: 'is required' },
        { path: 'b', message: 'is required' },
        { path: 'c', message: 'is not an accepted field (accepted: a, b)' },
      ]);
    });

    it('rejects arguments that are not one object', () => {
      for (const bad of [[1, 2], 'text', 5, true]) {
        expect(issuesOf(() => validateToolArgs(bad, addSchema))[0].message).toMatch(
          /^the arguments must be one JSON object/,
        );
      }
    });

    it('enforces lengths in Unicode code points', () => {
      const schema: JsonSchema = {
        type: 'object',
        properties: { s: { type: 'string', minLength: 2, maxLength: 2 } },
      };
      expect(validateToolArgs({ s: '😀😀' }, schema)).toEqual({ s: '😀😀' });
      expect(issuesOf(() => validateToolArgs({ s: '😀' }, schema))[0].message).toBe(
        'must have at least 2 characters',
      );
      expect(issuesOf(() => validateToolArgs({ s: '😀😀😀' }, schema))[0].message).toBe(
        'must have at most 2 characters',
      );
    });

    it('enforces enum, const, pattern, format, items and ranges', () => {
      const schema: JsonSchema = {
        type: 'object',
        properties: {
          e: { enum: ['a', 'b'] },
          c: { const: 3 },
          p: { type: 'string', pattern: '^[a-z]+$' },
          f: { type: 'string', format: 'email' },
          list: {
            type: 'array',
            items: { type: 'integer', exclusiveMinimum: 0 },
            maxItems: 2,
            uniqueItems: true,
          },
        },
      };
      const issues = issuesOf(() =>
        validateToolArgs({ e: 'z', c: 4, p: 'A1', f: 'nope', list: [1, 0] }, schema),
      );
      expect(issues).toEqual([
        { path: 'e', message: 'must be one of "a", "b"' },
        { path: 'c', message: 'must equal 3' },
        { path: 'p', message: 'must match the pattern ^[a-z]+$' },
        { path: 'f', message: 'must be a valid email' },
        { path: 'list.1', message: 'must be > 0' },
      ]);
      expect(issuesOf(() => validateToolArgs({ list: [1, 1] }, schema))).toEqual([
        { path: 'list.1', message: 'duplicates an earlier item; items must be unique' },
      ]);
      expect(issuesOf(() => validateToolArgs({ list: [1, 2, 3] }, schema))).toEqual([
        { path: 'list', message: 'must have at most 2 items' },
      ]);
    });

    it('supports anyOf, oneOf and allOf', () => {
      const schema: JsonSchema = {
        type: 'object',
        properties: {
          id: { anyOf: [{ type: 'integer' }, { type: 'string', minLength: 3 }] },
          one: {
            oneOf: [
              { type: 'integer', maximum: 5 },
              { type: 'integer', minimum: 3 },
            ],
          },
          all: { allOf: [{ type: 'integer' }, { minimum: 10 }] },
        },
      };
      expect(validateToolArgs({ id: '42', one: 1, all: '12' }, schema)).toEqual({ id: 42, one: 1, all: 12 });
      expect(validateToolArgs({ id: 'abc' }, schema)).toEqual({ id: 'abc' });
      expect(issuesOf(() => validateToolArgs({ id: 'ab' }, schema))[0].message).toMatch(
        /^must match one of the allowed schemas/,
      );
      expect(issuesOf(() => validateToolArgs({ one: 4 }, schema))[0].message).toBe(
        'must match exactly one allowed schema, matched 2',
      );
      expect(issuesOf(() => validateToolArgs({ all: 3 }, schema))[0]).toEqual({
        path: 'all',
        message: 'must be >= 10',
      });
    });

    it('follows local $refs, including recursive ones', () => {
      const schema: JsonSchema = {
        type: 'object',
        properties: { root: { $ref: '#/$defs/node' } },
        $defs: {
          node: {
            type: 'object',
            properties: { n: { type: 'integer' }, child: { $ref: '#/$defs/node' } },
            additionalProperties: false,
          },
        },
      };
      expect(validateToolArgs({ root: { n: '1', child: { n: '2' } } }, schema)).toEqual({
        root: { n: 1, child: { n: 2 } },
      });
      expect(
        issuesOf(() => validateToolArgs({ root: { child: { child: { n: 'x' } } } }, schema))[0].path,
      ).toBe('root.child.child.n');
    });

    it('throws ToolDefinitionError for a schema that refers to a missing definition', () => {
      expect(() =>
        validateToolArgs({}, { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }),
      ).toThrow(ToolDefinitionError);
    });

    it('throws ToolDefinitionError for a schema with an unknown type', () => {
      expect(() => validateToolArgs({}, { type: 'object', properties: { a: { type: 'text' } } })).toThrow(
        /unknown type "text"/,
      );
    });
  });

  describe('safety', () => {
    it('never mutates the caller object', () => {
      const input = { a: '1', b: '2' };
      const frozen = Object.freeze(input);
      const result = validateToolArgs(frozen, addSchema);
      expect(result).toEqual({ a: 1, b: 2 });
      expect(input).toEqual({ a: '1', b: '2' });
      expect(result).not.toBe(input);
    });

    it('never lets __proto__, constructor or prototype reach a prototype', () => {
      const open: JsonSchema = { type: 'object', additionalProperties: true };
      const payload = JSON.parse(
        '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "nested": {"__proto__": {"x": 1}}}',
      );
      const issues = issuesOf(() => validateToolArgs(payload, open));
      expect(issues.map((issue) => issue.path)).toEqual(['__proto__', 'constructor', 'nested.__proto__']);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('polluted');
    });

    it('keeps a declared __proto__ property as an own property', () => {
      const schema: JsonSchema = { type: 'object', properties: { ['__proto__']: { type: 'string' } } };
      const result = validateToolArgs(JSON.parse('{"__proto__": "value"}'), schema);
      expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toBe('value');
    });

    it('caps nesting depth before validating', () => {
      let deep: Record<string, unknown> = {};
      const root = deep;
      for (let level = 0; level < 200; level += 1) {
        const next = {};
        deep.x = next;
        deep = next;
      }
      const issues = issuesOf(() => validateToolArgs(root, { type: 'object', additionalProperties: true }));
      expect(issues[0].message).toBe('is nested deeper than 32 levels');
    });

    it('caps the number of values', () => {
      const issues = issuesOf(() =>
        validateToolArgs({ list: new Array(20_000).fill(1) }, { type: 'object', additionalProperties: true }),
      );
      expect(issues[0].message).toMatch(/more than 10000 values/);
    });

    it('summarizes problems past the issue limit', () => {
      const schema: JsonSchema = {
        type: 'object',
        properties: { list: { type: 'array', items: { type: 'string' } } },
      };
      const issues = issuesOf(() => validateToolArgs({ list: new Array(80).fill(1) }, schema));
      expect(issues).toHaveLength(51);
      expect(issues[50].message).toBe('30 more problem(s) not listed');
    });

    it('rejects values that are not JSON data', () => {
      const schema: JsonSchema = { type: 'object', additionalProperties: true };
      expect(issuesOf(() => validateToolArgs({ when: new Date() }, schema))[0].message).toBe(
        'must be JSON data, got Date',
      );
      expect(issuesOf(() => validateToolArgs({ fn: () => 1 }, schema))[0].message).toBe(
        'must be JSON data, got function',
      );
    });

    it('enforces a catastrophic pattern from an untrusted schema in linear time', () => {
      const schema: JsonSchema = {
        type: 'object',
        properties: { s: { type: 'string', pattern: '^(a+)+$' } },
      };
      const hostile = `${'a'.repeat(10_000)}!`;
      expect(issuesOf(() => validateToolArgs({ s: hostile }, schema, { untrusted: true }))).toEqual([
        { path: 's', message: 'must match the pattern ^(a+)+$' },
      ]);
      expect(validateToolArgs({ s: 'aaa' }, schema, { untrusted: true })).toEqual({ s: 'aaa' });
    });
  });

  describe('DTO reconstruction', () => {
    it('rebuilds named DTO parameters as instances, coerced', () => {
      const schema: JsonSchema = {
        type: 'object',
        properties: { booking: classToJsonSchema(BookingRequest) },
        required: ['booking'],
      };
      const result = validateToolArgs({ booking: { location: 'Athens', guests: '2' } }, schema, {
        dto: { properties: { booking: BookingRequest } },
      });
      expect(result.booking).toBeInstanceOf(BookingRequest);
      expect((result.booking as BookingRequest).guests).toBe(2);
    });

    it('rebuilds a whole-object DTO with nested instances', () => {
      const result = validateToolArgs(
        { name: 'Tour', start: { lat: 1, lon: 2 }, waypoints: [{ lat: '3', lon: 4 }] },
        classToJsonSchema(Trip),
        { dto: { whole: Trip } },
      ) as unknown as Trip;
      expect(result).toBeInstanceOf(Trip);
      expect(result.start).toBeInstanceOf(GeoPoint);
      expect(result.waypoints[0]).toBeInstanceOf(GeoPoint);
      expect(result.waypoints[0].lat).toBe(3);
    });

    it('runs custom class-validator validators that JSON Schema cannot express', () => {
      const issues = issuesOf(() =>
        validateToolArgs({ count: 3 }, classToJsonSchema(EvenBox), { dto: { whole: EvenBox } }),
      );
      expect(issues).toEqual([{ path: 'count', message: 'count must be even' }]);
      expect(
        validateToolArgs({ count: '4' }, classToJsonSchema(EvenBox), { dto: { whole: EvenBox } }),
      ).toBeInstanceOf(EvenBox);
    });
  });
});

describe('arguments that only look like plain objects', () => {
  const open: JsonSchema = { type: 'object', additionalProperties: true };

  it.each([
    ['a typed array', () => new Uint8Array([1, 2])],
    ['an array', () => [1, 2]],
  ])('refuses %s whose prototype was swapped for Object.prototype, at the root and nested', (_case, make) => {
    const swapped = Object.setPrototypeOf(make(), Object.prototype) as Record<string, unknown>;
    expect(() => validateToolArgs(swapped, open)).toThrow(ToolValidationError);
    expect(() => validateToolArgs(swapped, null)).toThrow('the arguments must be one JSON object');
    const nested = { inner: swapped };
    let walked: unknown;
    try {
      walked = validateToolArgs(nested, { type: 'object', properties: { inner: { type: 'object' } } });
    } catch (error) {
      walked = error;
    }
    expect(walked).toBeInstanceOf(ToolValidationError);
  });

  it('accepts an object without a prototype', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: '2' });
    expect(validateToolArgs(bare, addSchema)).toEqual({ a: 1, b: 2 });
  });
});

describe('prepareToolArgs and validatePreparedToolArgs', () => {
  const schema = classToJsonSchema(Trip);
  const binding = { whole: Trip, derived: { whole: true } };

  it('answers as validateToolArgs does, for accepted and refused arguments alike', () => {
    const prepared = prepareToolArgs(schema, { toolName: 'plan_trip', dto: binding });
    const inputs: unknown[] = [
      { name: 'Tour', start: { lat: 1, lon: 2 }, waypoints: [{ lat: 3, lon: 4 }] },
      { name: 'Tour', start: { lat: '1', lon: 2 }, waypoints: [] },
      { name: 'Tour', start: { lat: 1, lon: 2 }, waypoints: [], extra: true },
      { name: 5 },
      [1, 2],
      new Date(0),
      'Tour',
      null,
    ];
    for (const input of inputs) {
      let expected: unknown;
      try {
        expected = validateToolArgs(input, schema, { toolName: 'plan_trip', dto: binding });
      } catch (error) {
        expect(error).toBeInstanceOf(ToolValidationError);
        expect(() => validatePreparedToolArgs(input, prepared)).toThrow((error as Error).message);
        continue;
      }
      const actual = validatePreparedToolArgs(input, prepared);
      expect(actual).toEqual(expected);
      expect(actual).toBeInstanceOf(Trip);
    }
  });

  it('applies its limits over the defaults, and names the tool in errors', () => {
    const prepared = prepareToolArgs(addSchema, { toolName: 'add', limits: { maxNodes: 2 } });
    expect(prepared.limits.maxDepth).toBeGreaterThan(0);
    expect(() => validatePreparedToolArgs({ a: 1, b: 2 }, prepared)).toThrow(ToolValidationError);
    expect(() => validatePreparedToolArgs({ a: 1, b: 2 }, prepared)).toThrow(/add/);
    expect(validatePreparedToolArgs({ a: '1', b: 2 }, prepareToolArgs(addSchema))).toEqual({ a: 1, b: 2 });
  });

  it('refuses a schema that cannot be compiled when prepared', () => {
    expect(() => prepareToolArgs({ type: 'object', properties: { a: { type: 'nope' } } } as never)).toThrow(
      ToolDefinitionError,
    );
  });
});
