import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { evaluateArithmetic } from '../../../lib/builtins/calculator/evaluate-arithmetic';

function errorOf(expression: string): ToolInputError {
  try {
    evaluateArithmetic(expression);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolInputError);
    return error as ToolInputError;
  }
  throw new ToolInputError(`expected '${expression}' to fail`);
}

function resultOf(expression: string): number | string {
  return evaluateArithmetic(expression).result;
}

describe('evaluateArithmetic', () => {
  describe('errors', () => {
    it.each([
      [
        '1 / 0',
        "calculator cannot divide by zero: the right operand of '/' is zero (operator at character 3).",
      ],
      [
        '1 // 0',
        "calculator cannot divide by zero: the right operand of '//' is zero (operator at character 3).",
      ],
      [
        '1 % 0',
        "calculator cannot divide by zero: the right operand of '%' is zero (operator at character 3).",
      ],
      [
        '1.5 / 0.0',
        "calculator cannot divide by zero: the right operand of '/' is zero (operator at character 5).",
      ],
      [
        '1.5 // -0.0',
        "calculator cannot divide by zero: the right operand of '//' is zero (operator at character 5).",
      ],
      [
        '1.5 % (2 - 2)',
        "calculator cannot divide by zero: the right operand of '%' is zero (operator at character 5).",
      ],
      [
        '0 ** -1',
        'calculator cannot divide by zero: zero raised to a negative power (operator at character 3).',
      ],
      [
        '0.0 ** -0.5',
        'calculator cannot divide by zero: zero raised to a negative power (operator at character 5).',
      ],
    ])('rejects %s', (expression, message) => {
      expect(errorOf(expression).message).toBe(message);
    });

    it('reports the first error from the left, as Python evaluates', () => {
      expect(errorOf('1/0 + 2**1000').message).toContain('cannot divide by zero');
      expect(errorOf('2**1000 + 1/0').message).toContain('exponents are limited');
    });

    it('rejects complex results and imaginary literals as not real', () => {
      expect(errorOf('(-8)**(1/3)').message).toBe(
        "calculator accepts real numbers only: a negative base raised to a fractional power (operator '**' at " +
          'character 5) is a complex number.',
      );
      expect(errorOf('(-1) ** 0.5').message).toContain('accepts real numbers only');
      expect(resultOf('-1.5 ** 0.5')).toBe(-1.224744871391589);
      expect(errorOf('2j').message).toBe(
        "calculator accepts real numbers only: '2j' at character 1 is an imaginary (complex) number.",
      );
      expect(errorOf('1 + 1.5e3J').message).toContain('accepts real numbers only');
    });

    it('rejects booleans, None and strings as not real numbers', () => {
      expect(errorOf('True + 1').message).toBe(
        "calculator accepts real numbers only: 'True' at character 1 is not a number (booleans and None are rejected).",
      );
      expect(errorOf('1 * False').message).toContain("accepts real numbers only: 'False'");
      expect(errorOf('None').message).toContain('accepts real numbers only');
      expect(errorOf('"1" + 1').message).toBe(
        'calculator accepts real numbers only: the text in quotes at character 1 is not a number; write the number ' +
          'without quotes.',
      );
    });

    it('rejects names, calls and attribute access as unsupported', () => {
      expect(errorOf('sqrt(2)').message).toBe(
        "calculator expression contains an unsupported operation: the name 'sqrt' at character 1 (names, constants " +
          'and functions are not available). Use only numbers, parentheses and + - * / // % **.',
      );
      expect(errorOf('pi * 2').message).toContain("the name 'pi'");
      expect(errorOf('2(3)').message).toBe(
        'calculator expression contains an unsupported operation: a call at character 2 (functions are not ' +
          "available). Put an operator between a number and '('.",
      );
      expect(errorOf('(1)(2)').message).toContain('a call at character 4');
      expect(errorOf('(1).real').message).toContain("unsupported operation: '.' at character 4 (attributes");
      expect(errorOf('__import__("os").system("id")').message).toContain("the name '__import__'");
      expect(errorOf('constructor').message).toContain('unsupported operation');
      expect(errorOf('(1).__proto__').message).toContain('unsupported operation');
    });

    it.each([
      ['1 < 2', 'comparisons'],
      ['1 == 1', 'comparisons'],
      ['1 >= 1', 'comparisons'],
      ['1 << 2', 'bit shifts'],
      ['1 & 2', 'bitwise operators'],
      ['~1', 'bitwise operators'],
      ['1 ^ 2', 'bitwise operators'],
      ['1, 2', 'tuples and argument lists'],
      ['[1][0]', 'lists and indexing'],
      ['{1}', 'sets and dictionaries'],
      ['1 @ 2', 'matrix products'],
      ['(x := 1)', 'names, constants and functions'],
      ['1 if 1 else 2', 'names, constants and functions'],
      ['lambda: 1', 'names, constants and functions'],
      ['not 1', 'names, constants and functions'],
    ])('rejects %s as unsupported (%s)', (expression, kind) => {
      const message = errorOf(expression).message;
      expect(message).toContain('calculator expression contains an unsupported operation');
      expect(message).toContain(`(${kind} are not available)`);
    });

    it.each([
      ['1 +', "expected a number or '(' but found the end of the expression"],
      ['* 2', "expected a number or '(' but found '*' at character 1"],
      ['((1)', "'(' at character 1 is never closed"],
      ['1)', "unmatched ')' at character 2"],
      ['()', "expected a number or '(' but found ')' at character 2"],
      ['1 2', "missing operator before '2' at character 3"],
      ['(1 2)', "missing operator before '2' at character 4"],
      ['1..2', "missing operator before '.2' at character 3"],
      ['1 +* 2', "expected a number or '(' but found '*' at character 4"],
      ['1 *** 2', "expected a number or '(' but found '*' at character 5"],
      ['1 += 2', "unexpected character '=' at character 4"],
      ['1 $ 2', "unexpected character '$' at character 3"],
      ['1 # comment', "unexpected character '#' at character 3"],
      ['１+１', 'unexpected character U+FF11 at character 1'],
      ['1\u00a0+ 1', 'unexpected character U+00A0 at character 2'],
      ['1 ; 2', "unexpected character ';' at character 3"],
      ['0123', "'0123' at character 1 has leading zeros"],
      ['1__0', "'1_' at character 1 is not a valid number"],
      ['1_', "'1_' at character 1 is not a valid number"],
      ['1e', "'1e' at character 1 has an exponent without digits"],
      ['1e+', "'1e+' at character 1 has an exponent without digits"],
      ['0x', "'0x' at character 1 is not a valid hexadecimal literal"],
      ['0b102', "'0b102' at character 1 is not a valid binary literal"],
      ['0o8', "'0o8' at character 1 is not a valid octal literal"],
      ['12abc', "'12a' at character 1 is not a valid number"],
    ])('rejects %s as not valid arithmetic', (expression, detail) => {
      const message = errorOf(expression).message;
      expect(message).toContain('calculator expression is not valid arithmetic: ');
      expect(message).toContain(detail);
    });

    it('rejects an empty or blank expression', () => {
      expect(errorOf('').message).toBe('calculator expression must not be empty.');
      expect(errorOf(' \t\n\u00a0').message).toBe('calculator expression must not be empty.');
    });

    it('rejects a value that is not a string', () => {
      expect(errorOf(42 as unknown as string).message).toBe(
        "calculator expression must be a string such as '(18 * 4) + 3', got number.",
      );
      expect(errorOf(null as unknown as string).message).toContain('got null');
    });

    it('names the calculator tool on every error', () => {
      expect(errorOf('1/0').toolName).toBe('calculator');
      expect(errorOf('1/0').code).toBe('TOOL_INPUT');
    });
  });
});
