const view = new DataView(new ArrayBuffer(8));

/**
 * Splits a finite, non-zero double into an integer mantissa and a power of two, exactly:
 * `value === Number(mantissa) * 2 ** exponent` (the mantissa carries the sign).
 */
export function splitFloat(value: number): { mantissa: bigint; exponent: number } {
  view.setFloat64(0, value);
  const high = view.getUint32(0);
  const biased = (high >>> 20) & 0x7ff;
  let mantissa = (BigInt(high & 0xfffff) << 32n) | BigInt(view.getUint32(4));
  let exponent: number;
  if (biased === 0) {
    exponent = -1074;
  } else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  return { mantissa: value < 0 ? -mantissa : mantissa, exponent };
}
