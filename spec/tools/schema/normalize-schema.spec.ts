import 'reflect-metadata';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import type { JsonSchema } from '../../../lib/tools/json-schema';
import { normalizeSchema } from '../../../lib/tools/schema/normalize-schema';
import type { SchemaSource } from '../../../lib/tools/schema/normalize-schema';
import { validateToolArgs } from '../../../lib/tools/validation/validate-tool-args';
import { BookingRequest, TreeNode } from '../../fixtures/dto/booking.dto';

const closedEmpty = { type: 'object', properties: {}, required: [], additionalProperties: false };

describe('normalizeSchema', () => {
  describe('null and undefined', () => {
    it('gives a closed empty object, titled when a title is given', () => {
      expect(normalizeSchema(null)).toEqual(closedEmpty);
      expect(normalizeSchema(undefined, 'addInput')).toEqual({ ...closedEmpty, title: 'addInput' });
    });
  });

  describe('JSON Schema', () => {
    it('closes object schemas and fills properties and required', () => {
      expect(normalizeSchema({ type: 'object', properties: { a: { type: 'integer' } } })).toEqual({
        type: 'object',
        properties: { a: { type: 'integer' } },
        required: [],
        additionalProperties: false,
      });
    });

    it('sets type object on a schema with properties and no type', () => {
      expect(normalizeSchema({ properties: { a: { type: 'string' } }, required: ['a'] })).toEqual({
        type: 'object',
        properties: { a: { type: 'string' } },
        required: ['a'],
        additionalProperties: false,
      });
    });

    it('closes nested objects, objects in arrays and in anyOf branches', () => {
      const schema = normalizeSchema({
        type: 'object',
        properties: {
          booking: { type: 'object', properties: { guests: { type: 'integer' } } },
          rooms: { type: 'array', items: { type: 'object', properties: { kind: { type: 'string' } } } },
          either: { anyOf: [{ type: 'object' }, { type: 'string' }] },
        },
      });
      expect(schema.properties!.booking).toEqual({
        type: 'object',
        properties: { guests: { type: 'integer' } },
        required: [],
        additionalProperties: false,
      });
      expect(schema.properties!.rooms.items).toEqual({
        type: 'object',
        properties: { kind: { type: 'string' } },
        required: [],
        additionalProperties: false,
      });
      expect(schema.properties!.either.anyOf![0]).toEqual(closedEmpty);
    });

    it('closes a nullable object written as a type list', () => {
      expect(normalizeSchema({ type: ['object', 'null'], properties: { a: { type: 'string' } } })).toEqual({
        type: ['object', 'null'],
        properties: { a: { type: 'string' } },
        required: [],
        additionalProperties: false,
      });
    });

    it('keeps what the schema states: open objects, additionalProperties schemas, its own title', () => {
      expect(normalizeSchema({ type: 'object', additionalProperties: true }, 'T')).toEqual({
        type: 'object',
        additionalProperties: true,
        properties: {},
        required: [],
        title: 'T',
      });
      expect(
        normalizeSchema({ type: 'object', additionalProperties: { type: 'number' } }).additionalProperties,
      ).toEqual({ type: 'number' });
      expect(normalizeSchema({ type: 'object', title: 'Mine' }, 'Other').title).toBe('Mine');
    });

    it('leaves scalar and annotation-only schemas unclosed', () => {
      expect(normalizeSchema({ type: 'string', minLength: 1 }, 'T')).toEqual({
        type: 'string',
        minLength: 1,
        title: 'T',
      });
      expect(normalizeSchema({ description: 'anything' })).toEqual({ description: 'anything' });
    });

    it('never rewrites data inside enum, const, default and examples', () => {
      const schema = normalizeSchema({
        type: 'object',
        properties: {
          shape: { enum: [{ type: 'object' }] },
          fixed: { const: { type: 'object' } },
          options: { type: 'object', default: { type: 'object' }, examples: [{ type: 'object' }] },
        },
      });
      expect(schema.properties!.shape).toEqual({ enum: [{ type: 'object' }] });
      expect(schema.properties!.fixed).toEqual({ const: { type: 'object' } });
      expect(schema.properties!.options.default).toEqual({ type: 'object' });
      expect(schema.properties!.options.examples).toEqual([{ type: 'object' }]);
    });

    it('treats property names as names, even when they look like keywords', () => {
      const schema = normalizeSchema({
        type: 'object',
        properties: { type: { type: 'string' }, properties: { type: 'object' } },
      });
      expect(schema.properties!.type).toEqual({ type: 'string' });
      expect(schema.properties!.properties).toEqual(closedEmpty);
    });

    it('keeps a property named __proto__ as an own property, without touching any prototype', () => {
      const source = JSON.parse(
        '{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}',
      ) as JsonSchema;
      const schema = normalizeSchema(source);
      expect(Object.keys(schema.properties!)).toEqual(['__proto__']);
      expect(Object.getPrototypeOf(schema.properties)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(schema.properties, '__proto__')?.value).toEqual({
        type: 'string',
      });
      expect(({} as Record<string, unknown>).type).toBeUndefined();
    });

    it('never mutates or shares the input', () => {
      const source: JsonSchema = {
        type: 'object',
        properties: { p: { $ref: '#/$defs/P' }, list: { type: 'array', items: { type: 'object' } } },
        $defs: { P: { type: 'object', properties: { x: { type: 'number' } } } },
      };
      const before = structuredClone(source);
      const schema = normalizeSchema(source, 'T');
      expect(source).toEqual(before);
      schema.properties!.list.items = { type: 'string' };
      (schema.properties!.p.properties!.x as JsonSchema).type = 'string';
      expect(source).toEqual(before);
      expect(Object.isFrozen(source)).toBe(false);
    });

    it('accepts a frozen input', () => {
      const source = Object.freeze({
        type: 'object',
        properties: Object.freeze({ a: Object.freeze({ type: 'integer' }) }),
      });
      expect(normalizeSchema(source as JsonSchema).additionalProperties).toBe(false);
    });
  });

  describe('local $ref', () => {
    it('inlines #/$defs references and drops the definitions', () => {
      expect(
        normalizeSchema({
          type: 'object',
          properties: { point: { $ref: '#/$defs/Point' } },
          $defs: { Point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
        }),
      ).toEqual({
        type: 'object',
        properties: {
          point: {
            type: 'object',
            properties: { x: { type: 'number' } },
            required: ['x'],
            additionalProperties: false,
          },
        },
        required: [],
        additionalProperties: false,
      });
    });

    it('inlines #/definitions references, keeping sibling keywords', () => {
      expect(
        normalizeSchema({
          type: 'object',
          properties: { code: { $ref: '#/definitions/Code', description: 'Airport code' } },
          definitions: { Code: { type: 'string', pattern: '^[A-Z]{3}$' } },
        }).properties,
      ).toEqual({ code: { type: 'string', pattern: '^[A-Z]{3}$', description: 'Airport code' } });
    });

    it('inlines references inside definitions', () => {
      const schema = normalizeSchema({
        type: 'object',
        properties: { trip: { $ref: '#/$defs/Trip' } },
        $defs: {
          Trip: { type: 'object', properties: { from: { $ref: '#/$defs/City' } } },
          City: { type: 'string' },
        },
      });
      expect(schema.properties!.trip.properties!.from).toEqual({ type: 'string' });
      expect(schema).not.toHaveProperty('$defs');
    });

    it('resolves a root that is itself a reference into its definitions', () => {
      const schema = normalizeSchema({
        $ref: '#/$defs/Query',
        $defs: { Query: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
      });
      expect(schema).toEqual({
        type: 'object',
        properties: { q: { type: 'string' } },
        required: ['q'],
        additionalProperties: false,
      });
    });

    it('leaves a recursive reference as a reference and keeps its definition', () => {
      const schema = normalizeSchema({
        type: 'object',
        properties: { head: { $ref: '#/$defs/Node' } },
        $defs: {
          Node: { type: 'object', properties: { value: { type: 'string' }, next: { $ref: '#/$defs/Node' } } },
        },
      });
      expect(schema.properties!.head.properties!.next).toEqual({ $ref: '#/$defs/Node' });
      expect(schema.$defs!.Node.properties!.next).toEqual({ $ref: '#/$defs/Node' });
      expect(schema.$defs!.Node.additionalProperties).toBe(false);
      expect(
        validateToolArgs({ head: { value: 'a', next: { value: 'b', next: { value: 'c' } } } }, schema),
      ).toEqual({
        head: { value: 'a', next: { value: 'b', next: { value: 'c' } } },
      });
    });

    it('keeps the definition a recursive root reference points to, so the schema stays usable', () => {
      const schema = normalizeSchema({
        $ref: '#/$defs/Tree',
        $defs: {
          Tree: {
            type: 'object',
            properties: {
              label: { type: 'string' },
              children: { type: 'array', items: { $ref: '#/$defs/Tree' } },
            },
          },
        },
      });
      expect(schema.type).toBe('object');
      expect(schema.properties!.children.items).toEqual({ $ref: '#/$defs/Tree' });
      expect(schema.$defs!.Tree).toBeDefined();
      expect(
        validateToolArgs({ label: 'root', children: [{ label: 'leaf', children: [] }] }, schema),
      ).toEqual({
        label: 'root',
        children: [{ label: 'leaf', children: [] }],
      });
    });

    it('leaves # and unknown references as they are', () => {
      const schema = normalizeSchema({
        type: 'object',
        properties: { self: { $ref: '#' }, other: { $ref: '#/$defs/Missing' } },
      });
      expect(schema.properties).toEqual({ self: { $ref: '#' }, other: { $ref: '#/$defs/Missing' } });
    });
  });

  describe('DTO class', () => {
    it('derives the schema from class-validator metadata and titles it', () => {
      expect(normalizeSchema(BookingRequest, 'book_hotelInput')).toEqual({
        type: 'object',
        properties: {
          location: { type: 'string', description: 'City of the hotel' },
          guests: { type: 'integer', minimum: 1 },
        },
        required: ['location', 'guests'],
        additionalProperties: false,
        title: 'book_hotelInput',
      });
    });

    it('keeps the reference of a recursive DTO', () => {
      expect(normalizeSchema(TreeNode).properties!.children).toEqual({ type: 'array', items: { $ref: '#' } });
    });

    it('maps String, Number and Boolean to scalar schemas', () => {
      expect(normalizeSchema(String)).toEqual({ type: 'string' });
      expect(normalizeSchema(Number)).toEqual({ type: 'number' });
      expect(normalizeSchema(Boolean)).toEqual({ type: 'boolean' });
    });
  });

  describe('legacy field map', () => {
    it('converts the seed form { a: int, b: Number, c: { type: string, required: false } }', () => {
      expect(normalizeSchema({ a: 'int', b: Number, c: { type: 'string', required: false } }, 'T')).toEqual({
        type: 'object',
        properties: { a: { type: 'integer' }, b: { type: 'number' }, c: { type: 'string' } },
        required: ['a', 'b'],
        additionalProperties: false,
        title: 'T',
      });
    });

    it('knows every type name alias, case-insensitive and trimmed', () => {
      const schema = normalizeSchema({
        s: 'str',
        s2: ' String ',
        i: 'INT',
        i2: 'integer',
        f: 'float',
        n: 'number',
        b: 'bool',
        b2: 'boolean',
        d: 'dict',
        o: 'object',
        l: 'list',
        a: 'array',
        z: 'None',
        z2: 'null',
      });
      expect(schema.properties).toEqual({
        s: { type: 'string' },
        s2: { type: 'string' },
        i: { type: 'integer' },
        i2: { type: 'integer' },
        f: { type: 'number' },
        n: { type: 'number' },
        b: { type: 'boolean' },
        b2: { type: 'boolean' },
        d: { type: 'object', additionalProperties: true, properties: {}, required: [] },
        o: { type: 'object', additionalProperties: true, properties: {}, required: [] },
        l: { type: 'array', items: {} },
        a: { type: 'array', items: {} },
        z: { type: 'null' },
        z2: { type: 'null' },
      });
      expect(schema.required).toHaveLength(14);
    });

    it('maps constructors and DTO classes', () => {
      const schema = normalizeSchema({
        s: String,
        b: Boolean,
        l: Array,
        o: Object,
        n: null,
        booking: BookingRequest,
      });
      expect(schema.properties!.s).toEqual({ type: 'string' });
      expect(schema.properties!.b).toEqual({ type: 'boolean' });
      expect(schema.properties!.l).toEqual({ type: 'array', items: {} });
      expect(schema.properties!.o).toMatchObject({ type: 'object', additionalProperties: true });
      expect(schema.properties!.n).toEqual({ type: 'null' });
      expect(schema.properties!.booking).toMatchObject({
        type: 'object',
        required: ['location', 'guests'],
        additionalProperties: false,
      });
    });

    it('makes a field with a default optional and honours explicit required flags', () => {
      const schema = normalizeSchema({
        limit: { type: 'integer', default: 10 },
        forced: { type: 'integer', default: 1, required: true },
        loose: { type: 'string', required: false },
        plain: { type: 'string' },
      });
      expect(schema.required).toEqual(['forced', 'plain']);
      expect(schema.properties!.limit).toEqual({ type: 'integer', default: 10 });
      expect(schema.properties!.forced).toEqual({ type: 'integer', default: 1 });
    });

    it('accepts a type alias or a constructor inside a field definition', () => {
      const schema = normalizeSchema({
        count: { type: 'int', required: false, description: 'How many' },
        ratio: { type: Number, default: 0.5 },
      });
      expect(schema.properties).toEqual({
        count: { type: 'integer', description: 'How many' },
        ratio: { type: 'number', default: 0.5 },
      });
      expect(schema.required).toEqual([]);
    });

    it('converts a nested field map into a closed nested object', () => {
      const schema = normalizeSchema({ address: { street: String, number: 'int', required: true } });
      expect(schema.properties!.address).toEqual({
        type: 'object',
        properties: { street: { type: 'string' }, number: { type: 'integer' } },
        required: ['street', 'number'],
        additionalProperties: false,
      });
      expect(schema.required).toEqual(['address']);
    });

    it('maps an unknown type name to an unconstrained schema', () => {
      expect(normalizeSchema({ anything: 'whatever' }).properties).toEqual({ anything: {} });
    });

    it('never mutates the map', () => {
      const map = { a: 'int', c: { type: 'string', required: false } };
      const before = structuredClone(map);
      normalizeSchema(map);
      expect(map).toEqual(before);
    });
  });

  describe('bad input', () => {
    it.each<[string, unknown, RegExp]>([
      ['a number', 42, /A schema must be an object, a DTO class or null, got number\./],
      ['a string', 'object', /A schema must be an object, a DTO class or null, got string\./],
      ['a boolean', true, /got boolean/],
      ['an array', [{ type: 'string' }], /got an array/],
      [
        'a plain function',
        () => 1,
        /Cannot build a schema from this function: pass a JSON Schema object, a class-validator DTO class or a field map\./,
      ],
      [
        'a class without validation decorators',
        class Plain {},
        /Cannot build a schema from Plain: pass a JSON Schema object, a class-validator DTO class or a field map\./,
      ],
    ])('throws ToolDefinitionError for %s', (_label, source, message) => {
      expect(() => normalizeSchema(source as SchemaSource)).toThrow(ToolDefinitionError);
      expect(() => normalizeSchema(source as SchemaSource)).toThrow(message);
    });

    it('throws ToolDefinitionError for a schema that refers back to itself as an object', () => {
      const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
      (cyclic.properties as Record<string, unknown>).self = cyclic;
      expect(() => normalizeSchema(cyclic as JsonSchema)).toThrow(ToolDefinitionError);
      expect(() => normalizeSchema(cyclic as JsonSchema)).toThrow(
        "schema.properties.self refers back to itself; express recursion with a $ref such as { $ref: '#/$defs/Node' }.",
      );
    });

    it('throws ToolDefinitionError for a function inside a JSON Schema', () => {
      const source = {
        type: 'object',
        properties: { a: { type: 'integer', default: () => 1 } },
      } as unknown as JsonSchema;
      expect(() => normalizeSchema(source)).toThrow(ToolDefinitionError);
      expect(() => normalizeSchema(source)).toThrow(
        /schema\.properties\.a\.default is the function default, which a JSON Schema cannot hold/,
      );
    });

    it('throws ToolDefinitionError for a class instance inside a JSON Schema', () => {
      const source = {
        type: 'object',
        properties: { code: { type: 'string', pattern: /^[A-Z]{3}$/ } },
      } as unknown as JsonSchema;
      expect(() => normalizeSchema(source)).toThrow(ToolDefinitionError);
      expect(() => normalizeSchema(source)).toThrow(
        /schema\.properties\.code\.pattern is a RegExp, which a JSON Schema cannot hold; .*write a pattern as a string/,
      );
    });

    it('accepts objects without a prototype', () => {
      const properties = Object.assign(Object.create(null) as Record<string, unknown>, {
        a: { type: 'integer' },
      });
      expect(normalizeSchema({ type: 'object', properties } as JsonSchema).properties).toEqual({
        a: { type: 'integer' },
      });
    });

    it.each<[string, unknown, RegExp]>([
      ['a number', 42, /Field 'c' of the field map has the type 42/],
      ['undefined', undefined, /Field 'c' of the field map has the type undefined/],
      [
        'a class without validation decorators',
        class Address {},
        /Field 'c' of the field map is typed by Address, which has no class-validator decorators/,
      ],
    ])('throws ToolDefinitionError for a field typed by %s', (_label, type, message) => {
      expect(() => normalizeSchema({ a: 'int', c: type } as SchemaSource)).toThrow(ToolDefinitionError);
      expect(() => normalizeSchema({ a: 'int', c: type } as SchemaSource)).toThrow(message);
    });
  });
});
