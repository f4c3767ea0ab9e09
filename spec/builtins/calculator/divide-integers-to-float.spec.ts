import { divideIntegersToFloat } from '../../../lib/builtins/calculator/divide-integers-to-float';

describe('divideIntegersToFloat', () => {
  describe('divideIntegersToFloat()', () => {
    it('divides small integers exactly as doubles do', () => {
      expect(divideIntegersToFloat(1n, 3n)).toBe(1 / 3);
      expect(divideIntegersToFloat(-7n, 2n)).toBe(-3.5);
      expect(Object.is(divideIntegersToFloat(0n, -5n), -0)).toBe(true);
    });

    it('rounds quotients of huge integers once, to nearest', () => {
      expect(divideIntegersToFloat(10n ** 400n, 10n ** 399n)).toBe(10);
      expect(divideIntegersToFloat(10n ** 30n + 1n, 7n)).toBe(1.4285714285714286e29);
      expect(divideIntegersToFloat(-(10n ** 100n), 3n ** 100n)).toBe(-1.9403252174826328e52);
      expect(Object.is(divideIntegersToFloat(0n, 10n ** 30n), 0)).toBe(true);
    });

    it('rounds exact halfway cases to even and breaks near-ties by the remainder', () => {
      const top = 2n ** 53n;
      expect(divideIntegersToFloat(top + 1n, 1n)).toBe(2 ** 53);
      expect(divideIntegersToFloat(top + 3n, 1n)).toBe(2 ** 53 + 4);
      expect(divideIntegersToFloat((top + 1n) * 3n + 1n, 3n)).toBe(2 ** 53 + 2);
    });

    it('rounds subnormal results correctly and underflows to a signed zero', () => {
      expect(divideIntegersToFloat(1n, 10n ** 320n)).toBe(1e-320);
      expect(divideIntegersToFloat(-1n, 2n ** 1074n)).toBe(-5e-324);
      expect(divideIntegersToFloat(1n, 2n ** 1075n)).toBe(0);
      expect(divideIntegersToFloat(3n, 2n ** 1076n)).toBe(5e-324);
      expect(Object.is(divideIntegersToFloat(-1n, 10n ** 400n), -0)).toBe(true);
    });

    it('returns Infinity when the quotient overflows a double', () => {
      expect(divideIntegersToFloat(10n ** 400n, 3n)).toBe(Infinity);
      expect(divideIntegersToFloat(-(2n ** 1024n), 1n)).toBe(-Infinity);
      expect(divideIntegersToFloat(2n ** 1024n - 1n, 1n)).toBe(Infinity);
      expect(divideIntegersToFloat(2n ** 1024n - 2n ** 970n - 1n, 1n)).toBe(Number.MAX_VALUE);
    });

    it('applies a binary exponent to the quotient', () => {
      expect(divideIntegersToFloat(3n, 1n, -1)).toBe(1.5);
      expect(divideIntegersToFloat(1n, 1n, -1074)).toBe(5e-324);
      expect(divideIntegersToFloat(1n, 1n, 1023)).toBe(2 ** 1023);
      expect(divideIntegersToFloat(1n, 1n, 1024)).toBe(Infinity);
    });
  });
});
