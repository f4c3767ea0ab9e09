import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import type { JsonSchema } from '../../../lib/tools/json-schema';
import { getCompiledValidator } from '../../../lib/tools/validation/compiled-validator';
import {
  prepareToolArgs,
  validatePreparedToolArgs,
  validateToolArgs,
} from '../../../lib/tools/validation/validate-tool-args';

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('validateToolArgs and the form of its schema', () => {
  describe('a legacy field map', () => {
    const map = { a: 'int', note: { type: 'str', required: false } } as JsonSchema;

    it('is normalized as normalizeSchema does: fields are coerced', () => {
      expect(validateToolArgs({ a: '2' }, { a: 'int' } as JsonSchema)).toEqual({ a: 2 });
      expect(validateToolArgs({ a: '2', note: 'hi' }, map)).toEqual({ a: 2, note: 'hi' });
    });

    it('refuses an unexpected field and a missing required one, as the closed object says', () => {
      const extra = catchError(() => validateToolArgs({ a: '2', z: 1 }, { a: 'int' } as JsonSchema));
      expect(extra).toBeInstanceOf(ToolValidationError);
      expect((extra as Error).message).toBe('Invalid arguments: z: is not an accepted field (accepted: a)');
      const missing = catchError(() => validateToolArgs({ note: 'hi' }, map, { toolName: 'notes' }));
      expect(missing).toBeInstanceOf(ToolValidationError);
      expect((missing as Error).message).toBe("Invalid arguments for tool 'notes': a: is required");
      expect(() => validateToolArgs({ a: 'two' }, map)).toThrow(ToolValidationError);
    });

    it('is normalized once per schema object, not on every call', () => {
      expect(getCompiledValidator(map)).toBe(getCompiledValidator(map));
      const prepared = prepareToolArgs(map);
      expect(validatePreparedToolArgs({ a: '3' }, prepared)).toEqual({ a: 3 });
      expect(() => validatePreparedToolArgs({ a: 3, z: 1 }, prepared)).toThrow(ToolValidationError);
    });

    it('is never read as one when the schema came from outside', () => {
      const error = catchError(() =>
        validateToolArgs({ a: '2' }, { a: 'int' } as JsonSchema, { untrusted: true }),
      );
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as Error).message).toMatch(
        /^The schema is not a usable JSON Schema: its keys 'a' are not JSON/,
      );
    });
  });

  describe('a root of unknown keys that is no legacy field map either', () => {
    it('is a ToolDefinitionError naming the form, never "accept anything"', () => {
      const error = catchError(() => validateToolArgs({ a: '2', z: 1 }, { foo: 1 } as JsonSchema));
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as Error).message).toBe(
        "The schema is neither a JSON Schema nor a legacy field map: its keys 'foo' are not JSON Schema keywords, so it was read as a field map, which fails: " +
          "Field 'foo' of the field map has the type 1. Use a type name ('int', 'str', 'bool'…), a constructor (Number, String, Boolean), a DTO class, or an object such as { type: 'string', required: false }.",
      );
    });

    it('names the tool when it is given', () => {
      const error = catchError(() =>
        prepareToolArgs({ description: 'str', count: 'int' } as JsonSchema, { toolName: 'count' }),
      );
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as ToolDefinitionError).toolName).toBe('count');
      expect((error as Error).message).toMatch(
        /^Tool 'count' has an input schema that cannot be used: The schema is neither a usable JSON Schema nor a legacy field map: its keys 'count' are not JSON Schema keywords/,
      );
    });
  });

  describe('JSON Schema', () => {
    it('keeps the empty schema meaning "any object"', () => {
      expect(validateToolArgs({ a: '2', z: [1] }, {})).toEqual({ a: '2', z: [1] });
    });

    it('keeps a schema of annotations only meaning "any object"', () => {
      const annotated: JsonSchema = {
        title: 'Anything',
        description: 'Takes anything',
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: 'https://example.com/anything',
        $comment: 'deliberately open',
        examples: [{ a: 1 }],
        default: {},
      };
      expect(validateToolArgs({ a: '2' }, annotated)).toEqual({ a: '2' });
      expect(validateToolArgs({ a: '2' }, annotated, { untrusted: true })).toEqual({ a: '2' });
    });

    it('reads unknown keys next to constraining keywords as extensions', () => {
      const schema = {
        type: 'object',
        properties: { a: { type: 'integer' } },
        additionalProperties: false,
        'x-order': ['a'],
      } as JsonSchema;
      expect(validateToolArgs({ a: '2' }, schema)).toEqual({ a: 2 });
      expect(() => validateToolArgs({ a: 2, z: 1 }, schema, { untrusted: true })).toThrow(
        'Invalid arguments: z: is not an accepted field (accepted: a)',
      );
    });
  });
});
