import { raiseToFractionalPower } from '../../../lib/builtins/calculator/raise-to-fractional-power';

describe('raiseToFractionalPower', () => {
  describe('raiseToFractionalPower()', () => {
    it.each([
      [2, -0.5, 0.7071067811865476],
      [2, 0.5, 1.4142135623730951],
      [8, 1 / 3, 2],
      [27, 1 / 3, 3],
      [4, 1.5, 8],
      [2.25, 0.5, 1.5],
      [10, 0.1, 1.2589254117941673],
      [151731, -0.5, 0.002567218536772289],
      [440436, 7 / 73, 3.4769163481793295],
      [955849, 2.5, 893250412312090.1],
      [1e-300, 0.5, 1e-150],
      [1e300, 1.02, 1.0000000000000123e306],
      [0.5, 99.5, 1.1156177909894717e-30],
    ])('returns the correctly rounded %p ** %p as CPython prints it', (base, exponent, expected) => {
      expect(raiseToFractionalPower(base, exponent)).toBe(expected);
    });

    it('returns the nearest double in near-halfway cases where the C library pow CPython uses is one unit off', () => {
      // 78.202 ** -0.5 = 0.11308137221386779092…: the lower double is 6.885e-18 away, the upper (glibc's) 6.993e-18.
      expect(raiseToFractionalPower(78.202, -0.5)).toBe(0.11308137221386778);
      // 13 ** 10.000006518 = 137860796633.39225765…: the lower double is 1.522e-5 away, the upper (glibc's) 1.530e-5.
      expect(raiseToFractionalPower(13, 10.000006518)).toBe(137860796633.39224);
    });

    it('returns Infinity on overflow and 0 on underflow', () => {
      expect(raiseToFractionalPower(1e300, 1.5)).toBe(Infinity);
      expect(raiseToFractionalPower(1e-300, 1.5)).toBe(0);
      expect(raiseToFractionalPower(10, -324.5)).toBe(0);
    });

    it('rounds subnormal results once', () => {
      expect(raiseToFractionalPower(1e-200, 1.5)).toBe(1e-300);
      expect(raiseToFractionalPower(2, -1073.5)).toBe(5e-324);
      expect(raiseToFractionalPower(10, -323.5)).toBe(5e-324);
      expect(raiseToFractionalPower(1e-210, 1.5)).toBe(1e-315);
      expect(raiseToFractionalPower(1e-206, 1.5)).toBe(1e-309);
    });
  });
});
