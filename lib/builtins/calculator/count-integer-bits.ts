/**
 * Returns the number of bits of `|value|`, as Python's `int.bit_length()` (0 for 0), without building a
 * binary string: small values use `Math.clz32`, large ones the length of the hexadecimal form.
 */
export function countIntegerBits(value: bigint): number {
  const magnitude = value < 0n ? -value : value;
  if (magnitude <= 0xffffffffn) return 32 - Math.clz32(Number(magnitude));
  const hex = magnitude.toString(16);
  return (hex.length - 1) * 4 + (32 - Math.clz32(parseInt(hex[0], 16)));
}
