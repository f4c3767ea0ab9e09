/** `copysign(0.0, sign)`: a zero carrying the sign of `sign` (negative zero counts as negative). */
function signedZero(sign: number): number {
  return sign < 0 || Object.is(sign, -0) ? -0 : 0;
}

/**
 * Python's `float % float` (CPython `float_rem`): the remainder takes the sign of the divisor, and a zero
 * remainder is a zero with the divisor's sign. The divisor must not be zero.
 */
export function pythonFloatModulo(dividend: number, divisor: number): number {
  let remainder = dividend % divisor;
  if (remainder !== 0) {
    if (divisor < 0 !== remainder < 0) remainder += divisor;
  } else {
    remainder = signedZero(divisor);
  }
  return remainder;
}

/**
 * Python's `float // float` (CPython `_float_div_mod`): computed from the exact `fmod` remainder, so that
 * `q * divisor + r == dividend` holds as closely as doubles allow, then rounded to a whole number. The
 * divisor must not be zero.
 */
export function pythonFloatFloorDivide(dividend: number, divisor: number): number {
  const remainder = dividend % divisor;
  let quotient = (dividend - remainder) / divisor;
  if (remainder !== 0 && divisor < 0 !== remainder < 0) quotient -= 1;
  if (quotient === 0) return signedZero(dividend / divisor);
  let floored = Math.floor(quotient);
  if (quotient - floored > 0.5) floored += 1;
  return floored;
}
