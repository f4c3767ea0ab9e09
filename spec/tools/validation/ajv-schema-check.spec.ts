import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import type { JsonSchema } from '../../../lib/tools/json-schema';
import { compileAjvSchemaCheck, namesPrototypeMember } from '../../../lib/tools/validation/ajv-schema-check';
import { getCompiledValidator } from '../../../lib/tools/validation/compiled-validator';
import { validateToolArgs } from '../../../lib/tools/validation/validate-tool-args';

describe('namesPrototypeMember', () => {
  it.each([
    ['a property', { type: 'object', properties: { toString: { type: 'string' } } }],
    ['a required key', { type: 'object', required: ['constructor'] }],
    [
      'a nested property',
      { type: 'object', properties: { a: { type: 'object', properties: { valueOf: { type: 'integer' } } } } },
    ],
    ['an array item property', { type: 'array', items: { type: 'object', required: ['hasOwnProperty'] } }],
  ])('finds %s named like a member of Object.prototype', (_case, schema) => {
    expect(namesPrototypeMember(schema)).toBe(true);
  });

  it('finds a `__proto__` property (as JSON.parse makes it: an own key, not the prototype)', () => {
    expect(namesPrototypeMember(JSON.parse('{"type":"object","properties":{"__proto__":{}}}'))).toBe(true);
  });

  it('visits the schemas of properties named like data keywords (default, enum, const, examples)', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { default: { type: 'object', properties: {}, required: ['toString'] } },
      required: ['default'],
    };
    expect(namesPrototypeMember(schema)).toBe(true);
    expect(() => validateToolArgs({ default: {} }, schema)).toThrow('default.toString: is required');
  });

  it('ignores ordinary names, and values under enum, const, default and examples', () => {
    expect(
      namesPrototypeMember({
        type: 'object',
        properties: {
          a: { type: 'string', enum: ['toString'], examples: [{ constructor: 1 }] },
          b: { const: { valueOf: 1 }, default: { toString: 'x' } },
        },
        required: ['a'],
      }),
    ).toBe(false);
  });
});

describe('compileAjvSchemaCheck for copies', () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: { a: { type: 'integer' }, nested: { type: 'object', properties: { b: { type: 'string' } } } },
    required: ['a'],
    additionalProperties: false,
  };

  it('reports the same first issue as the own-properties check', () => {
    const own = compileAjvSchemaCheck(schema, false);
    const copies = compileAjvSchemaCheck(schema, false, true);
    for (const value of [{ a: 1 }, {}, { a: 'x' }, { a: 1, extra: true }, { a: 1, nested: { b: 2 } }]) {
      expect(copies(value)).toEqual(own(value));
    }
  });

  it('is used only for plain schemas that name no member of Object.prototype', () => {
    expect(getCompiledValidator(schema).ajvForCopies).not.toBe(getCompiledValidator(schema).ajv);
    const named: JsonSchema = { type: 'object', properties: { toString: { type: 'string' } } };
    expect(getCompiledValidator(named).ajvForCopies).toBe(getCompiledValidator(named).ajv);
    const patterned: JsonSchema = { type: 'object', properties: { a: { type: 'string', pattern: '^a' } } };
    expect(getCompiledValidator(patterned).ajvForCopies).toBe(getCompiledValidator(patterned).ajv);
    expect(getCompiledValidator(schema, true).ajvForCopies).toBe(getCompiledValidator(schema, true).ajv);
  });

  it('still requires own keys while Object.prototype is polluted (the walk takes over)', () => {
    const required: JsonSchema = {
      type: 'object',
      properties: { injected: { type: 'string' } },
      required: ['injected'],
    };
    expect(() => validateToolArgs({}, required)).toThrow(ToolValidationError);
    Object.defineProperty(Object.prototype, 'injected', { value: 'x', enumerable: true, configurable: true });
    try {
      expect(() => validateToolArgs({}, required)).toThrow('Invalid arguments: injected: is required');
    } finally {
      delete (Object.prototype as Record<string, unknown>).injected;
    }
  });
});
