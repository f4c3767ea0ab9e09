import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { evaluateArithmetic } from '../../../lib/builtins/calculator/evaluate-arithmetic';

type Expected = { int: string } | { float: string } | { error: string };

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
  describe('Python semantics', () => {
    it.each([
      ['(18 + 6) / 3', 8],
      ['(18 * 4) + 3', 75],
      ['1 + 2 * 3', 7],
      ['(1 + 2) * 3', 9],
      ['10 - 4 - 3', 3],
      ['2 * 3 % 4', 2],
      ['100 / 10 / 5', 2],
      ['7 / 2', 3.5],
      ['1 / 3', 0.3333333333333333],
      ['0.1 + 0.2', 0.30000000000000004],
      ['-7 // 2', -4],
      ['7 // -2', -4],
      ['-7 // -2', 3],
      ['7 // 2', 3],
      ['-7 % 2', 1],
      ['7 % -2', -1],
      ['-7 % 3', 2],
      ['-7 % -3', -1],
      ['7.5 // 2', 3],
      ['-7.5 // 2', -4],
      ['7.5 % -2', -0.5],
      ['-1e-300 % 1.0', 1],
      ['5.5 % 2.5', 0.5],
      ['2**-1', 0.5],
      ['2**3**2', 512],
      ['(2**3)**2', 64],
      ['-2**2', -4],
      ['(-2)**2', 4],
      ['2**-2**-1', 0.7071067811865476],
      ['-2**-1', -0.5],
      ['(-2)**3', -8],
      ['(-8)**2.0', 64],
      ['(-2)**-1', -0.5],
      ['0**0', 1],
      ['0.0**0', 1],
      ['1**100', 1],
      ['2**0.5', 1.4142135623730951],
      ['2**-0.5', 0.7071067811865476],
      ['10**-3', 0.001],
      ['1.1**2', 1.2100000000000002],
      ['--1', 1],
      ['-+-+1', 1],
      ['+-3', -3],
      ['2*-3', -6],
      ['2**+2', 4],
      ['9007199254740993 - 2', 9007199254740991],
      ['2**53 - 1', 9007199254740991],
      ['-(2**53 - 1)', -9007199254740991],
      ['2**100 // 2**90', 1024],
      ['2**100 % 7', 2],
      ['2**100 / 2**99', 2],
      ['(10**30 + 1) / 7', 1.4285714285714286e29],
      ['10**100 / 3**100', 1.9403252174826328e52],
      ['1 / 10**100 / 10**100 / 10**100 * 10**100', 1e-200],
      ['0x_1f + 1_000 + 1.e5 + 09.5', 101040.5],
      ['0o17 + 0b101 + 0XfF', 275],
      ['.5 + 1. + 1e3 + 1E-3 + 1_0.0_1e1_0', 100100001001.501],
      ['00 + 0_0', 0],
      ['  (1 + 1)\n', 2],
    ])('%s == %p', (expression, expected) => {
      expect(resultOf(expression)).toBe(expected);
    });

    it('keeps the sign of a zero as Python does', () => {
      expect(Object.is(resultOf('-0.0'), -0)).toBe(true);
      expect(Object.is(resultOf('-0.0 // 1'), -0)).toBe(true);
      expect(Object.is(resultOf('0.0 % -2'), -0)).toBe(true);
      expect(Object.is(resultOf('0 / -5'), -0)).toBe(true);
      expect(Object.is(resultOf('-0'), 0)).toBe(true);
    });

    it('returns integers for int arithmetic and floats once a float or / is involved', () => {
      expect(resultOf('6 // 3')).toBe(2);
      expect(resultOf('6 / 3')).toBe(2);
      expect(resultOf('2**10')).toBe(1024);
      expect(resultOf('2.0**10')).toBe(1024);
      expect(resultOf('2**62 - 2**62 + 1')).toBe(1);
    });

    it('computes integers exactly beyond 2**53 while computing', () => {
      expect(resultOf('(2**100 + 1) - 2**100')).toBe(1);
      expect(resultOf('2**100 * 3 // 2**99')).toBe(6);
      expect(resultOf('(10**40 + 7) % 10**20')).toBe(7);
    });

    it('rounds int / int correctly even when both integers are far beyond 2**53', () => {
      expect(resultOf('10**90 / 10**89')).toBe(10);
      expect(resultOf('(2**60 + 1) / 2**60')).toBe(1);
      expect(resultOf('(3 * 2**60 + 1) / 2**61')).toBe(1.5);
    });

    it('returns the correctly rounded power where the C library pow CPython uses is one unit off', () => {
      // CPython on glibc prints 2.2372900000000003e-13; the exact square lies 0.499992 units from the lower double.
      expect(resultOf('4.730e-7 ** 2')).toBe(4.73e-7 * 4.73e-7);
    });

    it('returns the trimmed expression with the result', () => {
      expect(evaluateArithmetic('  2 + 2  ')).toEqual({ expression: '2 + 2', result: 4 });
    });
  });

  describe('exact integers (CPython results)', () => {
    it.each<[string, number | string]>([
      ['2**100', '1267650600228229401496703205376'],
      ['-(2**100)', '-1267650600228229401496703205376'],
      ['10**30 // 7', '142857142857142857142857142857'],
      ['-(10**30) // 7', '-142857142857142857142857142858'],
      ['10**30 % -7', -6],
      ['-7 // 2', -4],
      ['-7 % 2', 1],
      ['2**64 - 1', '18446744073709551615'],
      ['(2**53)+1', '9007199254740993'],
      ['2**53-1', 9007199254740991],
      ['(2**64 - 1) * (2**64 + 1)', '340282366920938463463374607431768211455'],
    ])('%s is %p', (expression, expected) => {
      expect(resultOf(expression)).toBe(expected);
    });

    it.each([
      ['2**100 * 1.5', 1.901475900342344e30],
      ['2**100 + 0.0', 1.2676506002282294e30],
      ['2**100 / 2**99', 2],
      ['2**64 / 1', 18446744073709552000],
    ])('mixes %s with a float into a float, as Python does', (expression, expected) => {
      expect(resultOf(expression)).toBe(expected);
    });

    it('still refuses integers past 4096 bits and exponents past 100 with the errors it always gave', () => {
      expect(errorOf('2**10**10').message).toBe(
        "calculator exponents are limited to +/-100; the exponent of '**' at character 2 is 10000000000.",
      );
      expect(errorOf('(2**39)**100 * 2**100 * 2**96').message).toBe(
        'calculator integer results are limited to 4096 bits; use a float (e.g. 2.0 instead of 2) for an ' +
          'approximate result, or smaller numbers.',
      );
      expect(errorOf('(2**100)**100').message).toContain('integer results are limited to 4096 bits');
    });
  });

  describe('CPython reference results', () => {
    const file = join(__dirname, 'cpython-reference-results.json');
    const cases = (JSON.parse(readFileSync(file, 'utf8')) as { cases: Array<[string, Expected]> }).cases;

    it('holds hundreds of cases of every kind', () => {
      expect(cases.length).toBeGreaterThanOrEqual(600);
    });

    it.each(cases)('%s', (expression, expected) => {
      if ('error' in expected) {
        const phrase =
          expected.error === 'exceeds the supported magnitude' ? 'supported magnitude' : expected.error;
        expect(errorOf(expression).message).toContain(phrase);
      } else if ('int' in expected) {
        expect(String(resultOf(expression))).toBe(expected.int);
      } else {
        expect(Object.is(resultOf(expression), Number(expected.float))).toBe(true);
      }
    });
  });

  describe('limits', () => {
    it('accepts 256 characters and rejects 257 after trimming', () => {
      const ok = `1${' '.repeat(254)}1`.replace(/ $/, '+');
      expect(ok).toHaveLength(256);
      expect(resultOf(`1+${'0'.repeat(254)}`)).toBe(1);
      expect(errorOf(`1+${'0'.repeat(255)}`).message).toBe(
        'calculator expression must be at most 256 characters; split the calculation.',
      );
    });

    it('counts the length in code points, not UTF-16 units', () => {
      expect(errorOf('😀'.repeat(257)).message).toContain('at most 256 characters');
      expect(errorOf('😀'.repeat(200)).message).toContain('is not valid arithmetic');
    });

    it('accepts 64 syntax nodes and rejects 65', () => {
      expect(resultOf(Array(21).fill('1').join('+'))).toBe(21);
      expect(resultOf(`${'-'.repeat(31)}1`)).toBe(-1);
      expect(errorOf(Array(22).fill('1').join('+')).message).toBe(
        'calculator expressions are limited to 64 syntax nodes (each number counts 1, each operator 2, plus 1 for ' +
          'the whole expression). Split the calculation into several calls.',
      );
      expect(errorOf(`${'-'.repeat(32)}1`).message).toContain('limited to 64 syntax nodes');
    });

    it('does not count parentheses as nodes', () => {
      expect(resultOf(`${'('.repeat(100)}1${')'.repeat(100)}`)).toBe(1);
    });

    it('accepts exponents of +/-100 and rejects larger ones, for integers and floats', () => {
      expect(resultOf('1**100')).toBe(1);
      expect(resultOf('2**-100')).toBe(7.888609052210118e-31);
      expect(resultOf('1.5**100')).toBe(4.065611775352152e17);
      expect(errorOf('2**101').message).toBe(
        "calculator exponents are limited to +/-100; the exponent of '**' at character 2 is 101.",
      );
      expect(errorOf('2**-101').message).toContain('exponents are limited to +/-100');
      expect(errorOf('2**100.5').message).toContain('exponents are limited to +/-100');
      expect(errorOf('1**(10**50)').message).toContain('exponents are limited to +/-100');
    });

    it('checks the exponent before the power is computed, even for a base of 0 or 1', () => {
      expect(errorOf('0**1000').message).toContain('exponents are limited to +/-100');
      expect(errorOf('1.0**101').message).toContain('exponents are limited to +/-100');
    });

    it('rejects integer powers whose estimated size passes 4096 bits before computing them', () => {
      expect(errorOf('(2**100)**100').message).toBe(
        'calculator integer results are limited to 4096 bits; use a float (e.g. 2.0 instead of 2) for an ' +
          'approximate result, or smaller numbers.',
      );
      expect(errorOf('(2**50)**90 // 2**90').message).toContain('limited to 4096 bits');
    });

    it('rejects products that pass 4096 bits and accepts those just below', () => {
      // (2**39)**100 is 2**3900: its estimate (40 bits * 100) is within the limit.
      expect(resultOf('(2**39)**100 * 2**100 * 2**95 // ((2**39)**100 * 2**100 * 2**94)')).toBe(2);
      expect(errorOf('(2**39)**100 * 2**100 * 2**96').message).toContain('limited to 4096 bits');
      expect(errorOf('(2**39)**100 * (2**39)**100').message).toContain('limited to 4096 bits');
    });

    it('rejects sums and differences that pass 4096 bits', () => {
      const top = '(2**39)**100 * (2**39)**5';
      expect(resultOf(`(${top} - 1 + ${top}) // (${top})`)).toBe(1);
      expect(errorOf(`${top} + ${top}`).message).toContain('limited to 4096 bits');
      expect(errorOf(`-${top} - ${top}`).message).toContain('limited to 4096 bits');
    });

    it('returns integers up to 2**53 - 1 as numbers and larger ones as strings of their exact digits', () => {
      expect(resultOf('2**53 - 1')).toBe(Number.MAX_SAFE_INTEGER);
      expect(resultOf('-(2**53) + 1')).toBe(-Number.MAX_SAFE_INTEGER);
      expect(resultOf('2**53')).toBe('9007199254740992');
      expect(resultOf('-(2**53)')).toBe('-9007199254740992');
      expect(resultOf('2.0**100')).toBe(1.2676506002282294e30);
    });

    it('keeps the largest integers within 4096 bits exact to the last digit', () => {
      const product = resultOf('(2**64 - 1) * (2**64 + 1) * (2**39)**100 * 2**67');
      expect(product).toBe(((2n ** 64n - 1n) * (2n ** 64n + 1n) * 2n ** 3967n).toString());
      expect(BigInt(product).toString(2)).toHaveLength(4095);
    });

    it('accepts floats up to 1e308 and rejects larger ones', () => {
      expect(resultOf('1e308')).toBe(1e308);
      expect(resultOf('-1e308')).toBe(-1e308);
      expect(errorOf('1.5e308').message).toBe(
        'calculator result must be finite and within the supported magnitude (|x| <= 1e+308); the calculation ' +
          'overflowed or is undefined.',
      );
      expect(errorOf('1e309').message).toContain('result must be finite and within the supported magnitude');
      expect(errorOf('1e308 * 10').message).toContain('result must be finite');
      expect(errorOf('-1e308 - 1e308').message).toContain('result must be finite');
    });

    it('checks every intermediate value, so ** 0 or * 0 cannot hide an overflow', () => {
      expect(errorOf('(1e308 * 10) ** 0').message).toContain('result must be finite');
      expect(errorOf('(1e308 * 10) * 0').message).toContain('result must be finite');
      expect(errorOf('0 * 1e999').message).toContain('result must be finite');
      expect(errorOf('(1e308 + 1e308 - 1e308)').message).toContain('result must be finite');
    });

    it('reports overflows of conversions and powers as exceeding the supported magnitude', () => {
      expect(errorOf('(2**100)**11 * 1.0').message).toBe(
        'calculator result exceeds the supported magnitude (floats are limited to +/-1e+308).',
      );
      expect(errorOf('10.0**400').message).toContain('exponents are limited');
      expect(errorOf('1e300**2').message).toContain('exceeds the supported magnitude');
      expect(errorOf('(2**100)**11 / 3').message).toContain('exceeds the supported magnitude');
      expect(errorOf('((2**100)**11) ** -1').message).toContain('exceeds the supported magnitude');
    });

    it('lets float underflow to zero as Python does', () => {
      expect(resultOf('1e-300 ** 2')).toBe(0);
      expect(resultOf('5e-324 / 2')).toBe(0);
      expect(resultOf('1 / 10**100 / 10**100 / 10**100 / 10**100')).toBe(0);
    });
  });
});
