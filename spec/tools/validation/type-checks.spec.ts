import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import type { JsonSchema } from '../../../lib/tools/json-schema';
import { validateToolArgs } from '../../../lib/tools/validation/validate-tool-args';

function withType(type: JsonSchema['type'], extra: JsonSchema = {}): JsonSchema {
  return { type: 'object', properties: { v: { type, ...extra } } };
}

describe('buildTypeCheck (through validateToolArgs)', () => {
  describe('type lists', () => {
    it.each<[JsonSchema['type'], unknown]>([
      [['integer', 'string'], 'abc'],
      [['integer', 'string'], '2'],
      [['string', 'integer'], 2],
      [['string', 'integer'], '2'],
      [['number', 'boolean'], true],
      [['boolean', 'string'], 'yes'],
      [['integer', 'number'], 2.5],
      [['integer', 'string', 'null'], 'abc'],
      [['array', 'string'], ['a']],
      [['object', 'string'], {}],
    ])('keeps a value that already is one of %j unchanged (%j)', (type, value) => {
      expect(validateToolArgs({ v: value }, withType(type))).toEqual({ v: value });
    });

    it.each<[JsonSchema['type'], unknown, unknown]>([
      [['integer', 'boolean'], '2', 2],
      [['boolean', 'integer'], '2', 2],
      [['boolean', 'integer'], 'yes', true],
      [['integer', 'number'], '2.5', 2.5],
      [['integer', 'null'], '7', 7],
    ])('coerces in declared order when the value is none of %j (%j → %j)', (type, value, expected) => {
      expect(validateToolArgs({ v: value }, withType(type))).toEqual({ v: expected });
    });

    it('reports the constraint of the value own type', () => {
      expect(() =>
        validateToolArgs({ v: 'toolong' }, withType(['integer', 'string'], { maxLength: 3 })),
      ).toThrow('Invalid arguments: v: must have at most 3 characters');
    });

    it('reports the only non-null type when the value fits none', () => {
      expect(() => validateToolArgs({ v: 'abc' }, withType(['integer', 'null']))).toThrow(
        'Invalid arguments: v: must be an integer, got the string "abc"',
      );
    });

    it('lists every type when the value fits none of several', () => {
      expect(() => validateToolArgs({ v: 'abc' }, withType(['integer', 'boolean']))).toThrow(
        ToolValidationError,
      );
      expect(() => validateToolArgs({ v: 'abc' }, withType(['integer', 'boolean']))).toThrow(
        'Invalid arguments: v: must be an integer or a boolean, got string',
      );
    });

    it('keeps null when the list accepts it', () => {
      expect(validateToolArgs({ v: null }, withType(['string', 'null']))).toEqual({ v: null });
    });
  });
});
