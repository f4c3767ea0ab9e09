import { raiseToIntegerPower } from '../../../lib/builtins/calculator/raise-to-integer-power';

describe('raiseToIntegerPower', () => {
  describe('raiseToIntegerPower()', () => {
    it.each([
      [14, -100, 2.438913693989171e-115],
      [1.1, 2, 1.2100000000000002],
      [10, -3, 0.001],
      [-2, 3, -8],
      [-2, -1, -0.5],
      [1.5, 100, 4.065611775352152e17],
      [3, 0, 1],
    ])('returns the correctly rounded %p ** %p as CPython prints it', (base, exponent, expected) => {
      expect(raiseToIntegerPower(base, exponent)).toBe(expected);
    });

    it('returns Infinity on overflow and zero on underflow', () => {
      expect(raiseToIntegerPower(1e300, 2)).toBe(Infinity);
      expect(raiseToIntegerPower(1e-300, 2)).toBe(0);
      expect(Object.is(raiseToIntegerPower(-1e-300, 3), -0)).toBe(true);
    });

    it('handles subnormal bases exactly', () => {
      expect(raiseToIntegerPower(5e-324, 1)).toBe(5e-324);
      expect(raiseToIntegerPower(2 ** -1070, -1)).toBe(2 ** 1070);
    });
  });
});
