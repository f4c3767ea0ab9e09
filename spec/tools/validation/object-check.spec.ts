import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import type { JsonSchema } from '../../../lib/tools/json-schema';
import { validateToolArgs } from '../../../lib/tools/validation/validate-tool-args';

describe('buildObjectCheck (through validateToolArgs)', () => {
  describe('required', () => {
    it.each(['constructor', 'toString', 'hasOwnProperty', '__proto__'])(
      'requires %j as an own key, not an inherited one',
      (name) => {
        const undeclared: JsonSchema = {
          type: 'object',
          properties: {},
          required: [name],
          additionalProperties: true,
        };
        const declared: JsonSchema = {
          type: 'object',
          properties: { [name]: { type: 'string' } },
          required: [name],
        };
        expect(() => validateToolArgs({}, undeclared)).toThrow(ToolValidationError);
        expect(() => validateToolArgs({}, undeclared)).toThrow(`Invalid arguments: ${name}: is required`);
        expect(() => validateToolArgs({}, declared)).toThrow(`Invalid arguments: ${name}: is required`);
      },
    );

    it('accepts a required constructor field that is given as an own key', () => {
      const schema: JsonSchema = {
        type: 'object',
        properties: { constructor: { type: 'string' } },
        required: ['constructor'],
      };
      const result = validateToolArgs(JSON.parse('{"constructor":"Builder"}'), schema);
      expect(Object.getOwnPropertyDescriptor(result, 'constructor')?.value).toBe('Builder');
      expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    });
  });

  describe('patternProperties', () => {
    it('checks keys that match a pattern', () => {
      const schema: JsonSchema = {
        type: 'object',
        patternProperties: { '^x-': { type: 'integer' } },
        additionalProperties: false,
      };
      expect(validateToolArgs({ 'x-count': '3' }, schema)).toEqual({ 'x-count': 3 });
      expect(() => validateToolArgs({ 'x-count': 'three' }, schema)).toThrow(
        'x-count: must be an integer, got the string "three"',
      );
      expect(() => validateToolArgs({ other: 1 }, schema)).toThrow(/other: is not an accepted field/);
    });

    it('throws ToolDefinitionError for an invalid key pattern in a trusted schema', () => {
      const schema: JsonSchema = { type: 'object', patternProperties: { '(': {} } };
      expect(() => validateToolArgs({ a: 1 }, schema)).toThrow(ToolDefinitionError);
      expect(() => validateToolArgs({ a: 1 }, schema)).toThrow(
        "The patternProperties key at '#/patternProperties' is not a valid regular expression: (",
      );
    });

    it('enforces a catastrophic key pattern from an untrusted schema in linear time', () => {
      const catastrophic: JsonSchema = {
        type: 'object',
        patternProperties: { '^(a+)+$': { type: 'string' } },
      };
      const key = `${'a'.repeat(10_000)}`;
      expect(() => validateToolArgs({ [key]: 1 }, catastrophic, { untrusted: true })).toThrow(
        /: must be a string, got integer$/,
      );
      const other = `${key}b`;
      expect(validateToolArgs({ [other]: 1 }, catastrophic, { untrusted: true })).toEqual({ [other]: 1 });
    });

    it('refuses an invalid key pattern from an untrusted schema with a definition error', () => {
      const schema: JsonSchema = { type: 'object', patternProperties: { '(': {} } };
      expect(() => validateToolArgs({ a: 1 }, schema, { untrusted: true })).toThrow(
        `The pattern "(" cannot be compiled by the linear-time engine for untrusted schemas (error parsing regexp: missing closing ): \`(\`); the server must simplify it. (at '#/patternProperties')`,
      );
    });
  });
});
