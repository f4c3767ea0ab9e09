import type { JsonSchema } from '../../../lib/tools/json-schema';
import { validateToolArgs } from '../../../lib/tools/validation/validate-tool-args';

function withBranches(keyword: 'anyOf' | 'oneOf', branches: JsonSchema[]): JsonSchema {
  return { type: 'object', properties: { v: { [keyword]: branches } } };
}

describe('compileSchemaCheck (through validateToolArgs)', () => {
  describe('anyOf', () => {
    it('prefers the branch that accepts a scalar unchanged over one that coerces it', () => {
      expect(
        validateToolArgs({ v: '2' }, withBranches('anyOf', [{ type: 'integer' }, { type: 'string' }])),
      ).toEqual({ v: '2' });
      expect(
        validateToolArgs({ v: '2' }, withBranches('anyOf', [{ type: 'string' }, { type: 'integer' }])),
      ).toEqual({ v: '2' });
    });

    it('coerces when no branch accepts the value unchanged', () => {
      expect(
        validateToolArgs({ v: '2' }, withBranches('anyOf', [{ type: 'boolean' }, { type: 'integer' }])),
      ).toEqual({ v: 2 });
    });

    it('takes the first branch that accepts an object', () => {
      const branches: JsonSchema[] = [
        { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: true },
        { type: 'object', properties: { a: { type: 'string' } } },
      ];
      expect(validateToolArgs({ v: { a: '1' } }, withBranches('anyOf', branches))).toEqual({ v: { a: 1 } });
    });
  });

  describe('oneOf', () => {
    it('accepts a scalar that exactly one branch takes unchanged, even if another could coerce it', () => {
      expect(
        validateToolArgs({ v: '2' }, withBranches('oneOf', [{ type: 'integer' }, { type: 'string' }])),
      ).toEqual({ v: '2' });
      expect(
        validateToolArgs({ v: 2 }, withBranches('oneOf', [{ type: 'integer' }, { type: 'string' }])),
      ).toEqual({ v: 2 });
    });

    it('coerces when exactly one branch accepts the coerced value', () => {
      expect(
        validateToolArgs(
          { v: '2' },
          withBranches('oneOf', [{ type: 'integer' }, { type: 'boolean', const: true }]),
        ),
      ).toEqual({ v: 2 });
    });

    it('rejects a value that several branches take unchanged', () => {
      expect(() =>
        validateToolArgs({ v: 2 }, withBranches('oneOf', [{ type: 'integer' }, { type: 'number' }])),
      ).toThrow('Invalid arguments: v: must match exactly one allowed schema, matched 2');
    });

    it('rejects a value that several branches take only by coercion', () => {
      expect(() =>
        validateToolArgs({ v: '1' }, withBranches('oneOf', [{ type: 'integer' }, { type: 'boolean' }])),
      ).toThrow('Invalid arguments: v: must match exactly one allowed schema, matched 2');
    });
  });
});
