import { splitFloat } from '../../../lib/builtins/calculator/split-float';

describe('splitFloat', () => {
  describe('splitFloat()', () => {
    it.each([1, -1, 0.1, 1e308, -2.5e-300, 5e-324, Number.MAX_VALUE, 2 ** -1022])(
      'splits %p exactly into mantissa * 2 ** exponent',
      (value) => {
        const { mantissa, exponent } = splitFloat(value);
        expect(Number(mantissa) * 2 ** Math.max(exponent, -1000) * 2 ** Math.min(0, exponent + 1000)).toBe(
          value,
        );
      },
    );

    it('returns the 53-bit mantissa of a normal number and the raw one of a subnormal', () => {
      expect(splitFloat(1)).toEqual({ mantissa: 2n ** 52n, exponent: -52 });
      expect(splitFloat(-0.75)).toEqual({ mantissa: -(3n * 2n ** 51n), exponent: -53 });
      expect(splitFloat(5e-324)).toEqual({ mantissa: 1n, exponent: -1074 });
    });
  });
});
