import { countIntegerBits } from '../../../lib/builtins/calculator/count-integer-bits';

describe('countIntegerBits', () => {
  describe('countIntegerBits()', () => {
    it.each([
      [0n, 0],
      [1n, 1],
      [-1n, 1],
      [255n, 8],
      [256n, 9],
      [2n ** 32n - 1n, 32],
      [2n ** 32n, 33],
      [-(2n ** 53n) + 1n, 53],
      [2n ** 4096n - 1n, 4096],
      [2n ** 4096n, 4097],
    ])('returns the bit length of %p as %p, like Python int.bit_length()', (value, bits) => {
      expect(countIntegerBits(value)).toBe(bits);
    });
  });
});
