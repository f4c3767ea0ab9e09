import { isPlainSchema } from '../../../lib/tools/validation/is-plain-schema';

describe('isPlainSchema', () => {
  it('accepts closed objects of typed scalars, arrays and nested objects with bounds and enums', () => {
    expect(
      isPlainSchema({
        type: 'object',
        title: 'addInput',
        properties: {
          a: { type: 'integer', minimum: 0 },
          tags: { type: 'array', items: { type: 'string', maxLength: 20 }, maxItems: 5 },
          unit: { type: 'string', enum: ['c', 'f'] },
          nested: { type: 'object', properties: { ok: { type: 'boolean' } }, additionalProperties: false },
        },
        required: ['a'],
        additionalProperties: false,
      }),
    ).toBe(true);
  });

  it.each([
    ['a default to fill in', { type: 'object', properties: { a: { type: 'integer', default: 1 } } }],
    ['a format', { type: 'string', format: 'email' }],
    ['a pattern', { type: 'string', pattern: '^a' }],
    ['alternatives', { anyOf: [{ type: 'string' }, { type: 'integer' }] }],
    ['a type list', { type: ['string', 'null'] }],
    ['a reference', { type: 'object', properties: { next: { $ref: '#' } } }],
    ['a schema of additional properties', { type: 'object', additionalProperties: { type: 'string' } }],
    ['no type', {}],
    ['a tuple', { type: 'array', items: [{ type: 'string' }] }],
  ])('refuses a schema with %s', (_case, schema) => {
    expect(isPlainSchema(schema)).toBe(false);
  });
});
