import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { tokenizeExpression } from '../../../lib/builtins/calculator/tokenize-expression';

describe('tokenizeExpression', () => {
  describe('tokenizeExpression()', () => {
    it('splits numbers and operators and ends with an end token', () => {
      expect(tokenizeExpression('2**3 // (4%5)')).toEqual([
        { kind: 'integer', value: 2n, text: '2', position: 1 },
        { kind: 'operator', value: '**', position: 2 },
        { kind: 'integer', value: 3n, text: '3', position: 4 },
        { kind: 'operator', value: '//', position: 6 },
        { kind: 'operator', value: '(', position: 9 },
        { kind: 'integer', value: 4n, text: '4', position: 10 },
        { kind: 'operator', value: '%', position: 11 },
        { kind: 'integer', value: 5n, text: '5', position: 12 },
        { kind: 'operator', value: ')', position: 13 },
        { kind: 'end', position: 14 },
      ]);
    });

    it.each([
      ['1_000', 1000n],
      ['0x_1F', 31n],
      ['0XfF', 255n],
      ['0o17', 15n],
      ['0B1_01', 5n],
      ['0', 0n],
      ['000', 0n],
      ['0_0', 0n],
      ['123456789012345678901234567890', 123456789012345678901234567890n],
    ])('reads the integer literal %s', (text, value) => {
      expect(tokenizeExpression(text)[0]).toEqual({ kind: 'integer', value, text, position: 1 });
    });

    it.each([
      ['1.', 1],
      ['.5', 0.5],
      ['1.5', 1.5],
      ['1e3', 1000],
      ['1E-3', 0.001],
      ['1.e+2', 100],
      ['09.5', 9.5],
      ['0123e1', 1230],
      ['1_0.2_5', 10.25],
      ['1e1_0', 1e10],
      ['1e999', Infinity],
    ])('reads the float literal %s', (text, value) => {
      expect(tokenizeExpression(text)[0]).toEqual({ kind: 'float', value, text, position: 1 });
    });

    it('accepts ASCII spaces, tabs, newlines and form feeds between tokens', () => {
      expect(tokenizeExpression(' 1\t+\n2\r\f').map((token) => token.kind)).toEqual([
        'integer',
        'operator',
        'integer',
        'end',
      ]);
    });

    it('rejects names, keywords and Python-only operators as unsupported', () => {
      for (const expression of ['x', 'abs(1)', '1 and 2', '1 | 2', '1 >> 2', '1 != 2', 'a[0]', '1 .real']) {
        expect(() => tokenizeExpression(expression)).toThrow(ToolInputError);
        expect(() => tokenizeExpression(expression)).toThrow(
          'calculator expression contains an unsupported operation',
        );
      }
    });

    it('shortens very long names in the message', () => {
      expect(() => tokenizeExpression('a'.repeat(100))).toThrow(`the name '${'a'.repeat(40)}…'`);
    });

    it('rejects characters outside the grammar with their code point', () => {
      expect(() => tokenizeExpression('1 × 2')).toThrow(
        'calculator expression is not valid arithmetic: unexpected character U+00D7 at character 3.',
      );
      expect(() => tokenizeExpression('1 + 😀')).toThrow('unexpected character U+1F600 at character 5');
      expect(() => tokenizeExpression('1\u000b2')).toThrow('unexpected character U+000B at character 2');
    });
  });
});
