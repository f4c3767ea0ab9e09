import { divideIntegersToFloat } from './divide-integers-to-float';
import { countIntegerBits } from './count-integer-bits';
import { splitFloat } from './split-float';

/** Fractional bits of the fixed-point arithmetic: far beyond the 53 bits of the result. */
const PRECISION = 96n;
const ONE = 1n << PRECISION;
/** Beyond these exponents of e the result overflows a double or rounds to zero. */
const OVERFLOW_LOG = 710n * ONE;
const UNDERFLOW_LOG = -746n * ONE;

/** `2 * atanh(z)` for a fixed-point `z` with |z| well below 1: `ln((1 + z) / (1 - z))`. */
function doubleAtanh(z: bigint): bigint {
  const square = (z * z) >> PRECISION;
  let term = z;
  let sum = 0n;
  for (let divisor = 1n; term !== 0n; divisor += 2n) {
    sum += term / divisor;
    term = (term * square) / ONE;
  }
  return 2n * sum;
}

let cachedLn2: bigint | undefined;

/** ln 2 in fixed point (computed once: 2 * atanh(1/3)). */
function ln2(): bigint {
  cachedLn2 ??= doubleAtanh(ONE / 3n);
  return cachedLn2;
}

/** ln(x) in fixed point for a finite x > 0: x = f * 2 ** e with f in [sqrt(1/2), sqrt(2)]. */
function naturalLog(value: number): bigint {
  const { mantissa, exponent } = splitFloat(value);
  const bits = countIntegerBits(mantissa);
  let fraction = mantissa << (PRECISION - BigInt(bits - 1));
  let power = exponent + bits - 1;
  if (fraction * fraction > 2n * ONE * ONE) {
    fraction >>= 1n;
    power += 1;
  }
  const z = ((fraction - ONE) << PRECISION) / (fraction + ONE);
  return doubleAtanh(z) + BigInt(power) * ln2();
}

/**
 * Returns `base ** exponent` for a finite base > 0 and a finite, non-whole exponent (|exponent| <= 100) as
 * the correctly rounded double, like the C library `pow` CPython uses: `exp(exponent * ln(base))` is
 * computed in 96-bit fixed point with BigInt and rounded once (V8's `**` is off by one unit in the last
 * place in about one case in ten, e.g. `2 ** -0.5`). Returns Infinity on overflow and 0 on underflow.
 */
export function raiseToFractionalPower(base: number, exponent: number): number {
  const { mantissa, exponent: binaryExponent } = splitFloat(exponent);
  let logarithm = naturalLog(base) * mantissa;
  logarithm =
    binaryExponent >= 0 ? logarithm << BigInt(binaryExponent) : logarithm >> BigInt(-binaryExponent);
  if (logarithm > OVERFLOW_LOG) return Infinity;
  if (logarithm < UNDERFLOW_LOG) return 0;
  // exp(t) = exp(r) * 2 ** k with t = k * ln 2 + r and |r| <= ln(2) / 2.
  const log2 = ln2();
  const twice = 2n * logarithm + log2;
  let k = twice / (2n * log2);
  if (twice < 0n && twice % (2n * log2) !== 0n) k -= 1n;
  const remainder = logarithm - k * log2;
  let term = ONE;
  let sum = ONE;
  for (let index = 1n; term !== 0n; index += 1n) {
    term = (term * remainder) / ONE / index;
    sum += term;
  }
  return divideIntegersToFloat(sum, 1n, Number(k) - Number(PRECISION));
}
