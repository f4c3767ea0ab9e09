import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import type { JsonSchema } from '../../../lib/tools/json-schema';
import { normalizeSchema } from '../../../lib/tools/schema/normalize-schema';
import { toValidationSchema } from '../../../lib/tools/schema/to-validation-schema';

describe('toValidationSchema', () => {
  describe('JSON Schema', () => {
    it.each<[string, JsonSchema]>([
      ['the empty schema', {}],
      [
        'a schema of annotations only',
        {
          title: 'Anything',
          description: 'Takes anything',
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          $id: 'https://example.com/anything',
          $comment: 'deliberately open',
          examples: [{ a: 1 }],
          default: {},
        },
      ],
      ['a schema of keywords that no field-map heuristic knows', { not: { type: 'null' }, minProperties: 1 }],
      ['a schema with an extension keyword next to constraining ones', { type: 'object', 'x-order': 1 }],
      ['a field map whose keys are all JSON Schema keywords', { pattern: 'str' }],
    ])('returns %s as it is', (_label, schema) => {
      expect(toValidationSchema(schema)).toBe(schema);
      expect(toValidationSchema(schema, { untrusted: true })).toBe(schema);
    });
  });

  describe('legacy field maps', () => {
    it.each<[string, Record<string, unknown>]>([
      ['type names', { a: 'int', b: 'str' }],
      [
        'constructors and field objects',
        { a: Number, b: { type: 'string', required: false }, c: { type: 'int' } },
      ],
      ['a field named after a keyword, next to one that is not', { minimum: 'int', name: 'str' }],
      ['a field named type whose value is not a JSON type', { type: 'int', name: 'str' }],
    ])('normalizes a map of %s exactly as normalizeSchema does', (_label, map) => {
      expect(toValidationSchema(map as JsonSchema)).toEqual(normalizeSchema(map));
    });

    it('closes the object: every field without a default is required, no other field is accepted', () => {
      expect(toValidationSchema({ a: 'int' } as JsonSchema)).toEqual({
        type: 'object',
        properties: { a: { type: 'integer' } },
        required: ['a'],
        additionalProperties: false,
      });
    });
  });

  describe('refusals', () => {
    it('refuses a root of unknown keys that is no field map either, saying why', () => {
      expectDefinitionError(
        () => toValidationSchema({ foo: 1 } as JsonSchema),
        "The schema is neither a JSON Schema nor a legacy field map: its keys 'foo' are not JSON Schema keywords, so it was read as a field map, which fails: " +
          "Field 'foo' of the field map has the type 1. Use a type name ('int', 'str', 'bool'…), a constructor (Number, String, Boolean), a DTO class, or an object such as { type: 'string', required: false }.",
      );
    });

    it('keeps the field-map error as the cause', () => {
      const error = catchError(() => toValidationSchema({ foo: { bar: 2 } } as JsonSchema));
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as Error).cause).toBeInstanceOf(ToolDefinitionError);
      expect((error as Error).message).toMatch(/its keys 'foo' are not JSON Schema keywords.*Field 'bar'/);
    });

    it('refuses annotations next to unknown keys, which as a JSON Schema would accept anything', () => {
      expectDefinitionError(
        () => toValidationSchema({ description: 'str', count: 'int' } as JsonSchema),
        "The schema is neither a usable JSON Schema nor a legacy field map: its keys 'count' are not JSON Schema keywords and its only keywords ('description') constrain nothing, so as a JSON Schema it would accept anything; those keywords keep it from being read as a field map. " +
          "Write a JSON Schema such as { type: 'object', properties: { … }, required: [ … ] }, or a field map without JSON Schema keywords such as { count: 'int' }.",
      );
    });

    it('never reads a schema from outside as a field map', () => {
      expectDefinitionError(
        () => toValidationSchema({ a: 'int' } as JsonSchema, { untrusted: true }),
        "The schema is not a usable JSON Schema: its keys 'a' are not JSON Schema keywords and nothing in it constrains, so it would accept anything; a schema from outside (an MCP server, or one kept as given) is never read as a legacy field map. " +
          "It must be a JSON Schema such as { type: 'object', properties: { … } }.",
      );
      const extended = { minProperties: 1, 'x-order': 1 } as JsonSchema;
      expect(toValidationSchema(extended, { untrusted: true })).toBe(extended);
    });
  });
});

function expectDefinitionError(run: () => unknown, message: string): void {
  const error = catchError(run);
  expect(error).toBeInstanceOf(ToolDefinitionError);
  expect((error as Error).message).toBe(message);
}

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
