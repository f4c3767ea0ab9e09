import { countIntegerBits } from './count-integer-bits';

const EXACT_LIMIT = 2n ** 53n;
/** Significant bits of the scaled quotient: 53 for the result plus two guard bits. */
const QUOTIENT_BITS = 55;
const SMALLEST_SUBNORMAL_EXPONENT = -1074;

/** Multiplies by `2 ** exponent` in steps that stay exact whenever the final value is representable. */
function scaleByPowerOfTwo(mantissa: number, exponent: number): number {
  let value = mantissa;
  let remaining = exponent;
  while (remaining > 1000) {
    value *= 2 ** 1000;
    remaining -= 1000;
  }
  while (remaining < -1000) {
    value *= 2 ** -1000;
    remaining += 1000;
  }
  return value * 2 ** remaining;
}

/**
 * Returns `numerator / denominator * 2 ** binaryExponent` as the correctly rounded double (round half to
 * even), like Python's `int / int`, also for integers far beyond 2**53 where `Number(a) / Number(b)` would
 * round twice or give `Infinity / Infinity`. Returns ±Infinity when the value overflows a double (the caller
 * rejects it). The denominator must not be zero.
 */
export function divideIntegersToFloat(numerator: bigint, denominator: bigint, binaryExponent = 0): number {
  const negative = numerator < 0n !== denominator < 0n;
  const dividend = numerator < 0n ? -numerator : numerator;
  const divisor = denominator < 0n ? -denominator : denominator;
  if (binaryExponent === 0 && dividend <= EXACT_LIMIT && divisor <= EXACT_LIMIT) {
    return Number(numerator) / Number(denominator);
  }
  if (dividend === 0n) return negative ? -0 : 0;
  // The quotient lies in [2 ** (estimate - 1), 2 ** (estimate + 1)).
  const estimate = countIntegerBits(dividend) - countIntegerBits(divisor);
  if (estimate + binaryExponent > 1025) return negative ? -Infinity : Infinity;
  if (estimate + binaryExponent < SMALLEST_SUBNORMAL_EXPONENT - 2) return negative ? -0 : 0;
  const scale = QUOTIENT_BITS - estimate;
  let quotient: bigint;
  let inexact: boolean;
  if (scale < 0 && divisor === 1n) {
    // A plain integer (e.g. an exact power): shifting is much cheaper than dividing by a power of two.
    quotient = dividend >> BigInt(-scale);
    inexact = BigInt.asUintN(-scale, dividend) !== 0n;
  } else {
    const scaledDividend = scale >= 0 ? dividend << BigInt(scale) : dividend;
    const scaledDivisor = scale >= 0 ? divisor : divisor << BigInt(-scale);
    quotient = scaledDividend / scaledDivisor;
    inexact = scaledDividend % scaledDivisor !== 0n;
  }
  // The quotient's last bit weighs 2 ** (binaryExponent - scale); keep 53 bits, fewer for a subnormal result.
  const lowestExponent = binaryExponent - scale;
  const quotientBits = countIntegerBits(quotient);
  let drop = quotientBits - 53;
  if (drop + lowestExponent < SMALLEST_SUBNORMAL_EXPONENT)
    drop = SMALLEST_SUBNORMAL_EXPONENT - lowestExponent;
  const dropBits = BigInt(drop);
  let kept = quotient >> dropBits;
  const rest = quotient - (kept << dropBits);
  const half = 1n << (dropBits - 1n);
  if (rest > half || (rest === half && (inexact || (kept & 1n) === 1n))) kept += 1n;
  const value = scaleByPowerOfTwo(Number(kept), drop + lowestExponent);
  return negative ? -value : value;
}
