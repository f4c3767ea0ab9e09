import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import type { JsonSchema } from '../../../lib/tools/json-schema';
import { compileAjvSchemaCheck } from '../../../lib/tools/validation/ajv-schema-check';
import {
  compileUntrustedPattern,
  MAX_UNTRUSTED_PATTERN_LENGTH,
} from '../../../lib/tools/validation/compile-untrusted-pattern';
import { validateToolArgs } from '../../../lib/tools/validation/validate-tool-args';

const stringSchema = (pattern: string): JsonSchema => ({
  type: 'object',
  properties: { text: { type: 'string', pattern } },
  required: ['text'],
});

function issuesOf(run: () => unknown): { path: string; message: string }[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolValidationError);
    return [...(error as ToolValidationError).issues];
  }
  throw new Error('expected a ToolValidationError');
}

function definitionErrorOf(run: () => unknown): ToolDefinitionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return error as ToolDefinitionError;
  }
  throw new Error('expected a ToolDefinitionError');
}

describe('compileUntrustedPattern', () => {
  describe('catastrophic patterns (regressions: these froze the event loop)', () => {
    const hostile = `${'a'.repeat(10_000)}!`;

    it.each(['^(a|a)*$', '^a*a*a*a*a*a*a*a*$', '^(a+)+$', '^(a*)*b$'])(
      'enforces %s on a 10,000-character argument of an untrusted schema',
      (pattern) => {
        expect(
          issuesOf(() => validateToolArgs({ text: hostile }, stringSchema(pattern), { untrusted: true })),
        ).toEqual([{ path: 'text', message: `must match the pattern ${pattern}` }]);
      },
    );

    it('accepts a matching 10,000-character argument', () => {
      const value = 'a'.repeat(10_000);
      expect(validateToolArgs({ text: value }, stringSchema('^(a|a)*$'), { untrusted: true })).toEqual({
        text: value,
      });
    });

    it('runs them in the linear-time engine in Ajv too', () => {
      const check = compileAjvSchemaCheck(stringSchema('^a*a*a*a*a*a*a*a*$'), true);
      expect(check({ text: hostile })).toEqual({
        path: 'text',
        message: 'must match pattern "^a*a*a*a*a*a*a*a*$"',
      });
      expect(check({ text: 'aaaa' })).toBeNull();
      const keys = compileAjvSchemaCheck(
        { type: 'object', patternProperties: { '^(a|a)*$': { type: 'integer' } } },
        true,
      );
      expect(keys({ [hostile.slice(0, -1)]: 'x' })?.message).toBe('must be integer');
      expect(keys({ [hostile]: 'x' })).toBeNull();
    });
  });

  describe('patterns the linear-time engine refuses', () => {
    it.each([
      ['^(a+)\\1$', 'back-references such as \\1'],
      ['^(?<x>a)\\k<x>$', 'named back-references such as \\k<name>'],
      ['^(?=a)a$', 'look-arounds such as (?=…) and (?<!…)'],
      ['^(?!a)b$', 'look-arounds such as (?=…) and (?<!…)'],
      ['(?<=a)b', 'look-arounds such as (?=…) and (?<!…)'],
      ['(?<!a)b', 'look-arounds such as (?=…) and (?<!…)'],
    ])('refuses %s with a ToolDefinitionError saying why', (pattern, reason) => {
      const error = definitionErrorOf(() => compileUntrustedPattern(pattern));
      expect(error.message).toBe(
        `The pattern ${JSON.stringify(pattern)} uses ${reason}, which the linear-time engine for untrusted schemas cannot run; the server must rewrite it without them.`,
      );
    });

    it('refuses a repeat count above 1,000 and names where the pattern sits', () => {
      const error = definitionErrorOf(() =>
        validateToolArgs({ text: 'a' }, stringSchema('^.{0,5000}$'), { untrusted: true }),
      );
      expect(error.message).toBe(
        'The pattern "^.{0,5000}$" cannot be compiled by the linear-time engine for untrusted schemas (error parsing regexp: invalid repeat count: `{0,5000}`); the server must simplify it. (at \'#/properties/text/pattern\')',
      );
    });

    it('refuses a pattern longer than the limit', () => {
      const error = definitionErrorOf(() =>
        compileUntrustedPattern('a'.repeat(MAX_UNTRUSTED_PATTERN_LENGTH + 1)),
      );
      expect(error.message).toBe(
        `The pattern of ${MAX_UNTRUSTED_PATTERN_LENGTH + 1} characters is longer than ${MAX_UNTRUSTED_PATTERN_LENGTH}; patterns from untrusted schemas must be shorter.`,
      );
    });

    it('keeps the native engine for trusted schemas (look-arounds work there)', () => {
      expect(validateToolArgs({ text: 'ab' }, stringSchema('^(?=a)\\w+$'))).toEqual({ text: 'ab' });
      expect(issuesOf(() => validateToolArgs({ text: 'ba' }, stringSchema('^(?=a)\\w+$')))[0].path).toBe(
        'text',
      );
    });
  });

  describe('ECMA-262 meaning (as JavaScript with the u flag reads it)', () => {
    const cases: Array<[string, string]> = [
      ['^\\d+$', '123'],
      ['^\\d+$', '١٢٣'],
      ['^\\w+$', 'é'],
      ['^\\s$', '\u00a0'],
      ['^\\s$', '\u3000'],
      ['^\\s$', '\ufeff'],
      ['^\\S$', '\u00a0'],
      ['^\\S$', 'x'],
      ['^[\\s]$', '\u2028'],
      ['^[^\\s]$', '\u2028'],
      ['^[\\S]$', 'x'],
      ['^[\\S\\s]$', '\n'],
      ['^.$', '\r'],
      ['^.$', '\u2028'],
      ['^.$', '😀'],
      ['^.$', '\t'],
      ['^\\u00e9$', 'é'],
      ['^\\u{1F600}$', '😀'],
      ['^\\uD83D\\uDE00$', '😀'],
      ['^[^]$', '\n'],
      ['^[]$', 'a'],
      ['^(?<year>\\d{4})$', '2024'],
      ['^\\p{Script=Greek}+$', 'αβγ'],
      ['^\\p{L}+$', 'añb'],
      ['^\\P{L}$', '1'],
      ['^a$', 'a\n'],
      ['a$', 'ba'],
      ['^\\cJ$', '\n'],
      ['^\\0$', '\0'],
      ['^[\\b]$', '\b'],
      ['^\\/$', '/'],
      ['^[[]$', '['],
      ['^[a-c\\-]+$', 'a-c'],
      ['^\\x41$', 'A'],
      ['^\\bfoo\\b', 'foo bar'],
      ['colou?r', 'the colour'],
    ];

    it.each(cases)('%s on %j matches exactly when JavaScript does', (pattern, value) => {
      expect(compileUntrustedPattern(pattern).test(value)).toBe(new RegExp(pattern, 'u').test(value));
    });

    it('returns the same compiled pattern for the same source', () => {
      expect(compileUntrustedPattern('^ab+$')).toBe(compileUntrustedPattern('^ab+$'));
    });
  });
});
