import { divideIntegersToFloat } from './divide-integers-to-float';
import { splitFloat } from './split-float';

/**
 * Returns `base ** exponent` for a finite, non-zero float base and a whole exponent (|exponent| <= 100) as
 * the correctly rounded double, computed exactly with BigInt: V8's `**` is off by one unit in the last place
 * in about one case in ten, while CPython's `pow` (the C library's) is correctly rounded in practice.
 * Returns ±Infinity on overflow (the caller rejects it) and a signed zero on underflow (as Python does).
 */
export function raiseToIntegerPower(base: number, exponent: number): number {
  const { mantissa, exponent: binaryExponent } = splitFloat(base);
  const count = BigInt(Math.abs(exponent));
  const power = mantissa ** count;
  if (exponent >= 0) return divideIntegersToFloat(power, 1n, binaryExponent * exponent);
  return divideIntegersToFloat(power < 0n ? -1n : 1n, power < 0n ? -power : power, binaryExponent * exponent);
}
