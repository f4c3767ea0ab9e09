const INTEGER_TEXT = /^[+-]?\d+$/;
const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const TRUE_TEXT = new Set(['true', 'yes', '1']);
const FALSE_TEXT = new Set(['false', 'no', '0']);

/** A failed coercion. */
export const NOT_COERCIBLE: unique symbol = Symbol('protolink:not-coercible');

/** Converts a value to an integer the conservative way: integral numbers and `[+-]digits` strings only. */
export function coerceInteger(value: unknown): number | typeof NOT_COERCIBLE {
  if (typeof value === 'number') return Number.isInteger(value) ? value : NOT_COERCIBLE;
  if (typeof value === 'string') {
    const text = value.trim();
    if (!INTEGER_TEXT.test(text)) return NOT_COERCIBLE;
    const parsed = Number(text);
    return Number.isSafeInteger(parsed) ? parsed : NOT_COERCIBLE;
  }
  return NOT_COERCIBLE;
}

/** Converts a value to a finite number: numbers, and decimal strings such as `"2"`, `"-1.5e3"`. */
export function coerceNumber(value: unknown): number | typeof NOT_COERCIBLE {
  if (typeof value === 'number') return Number.isFinite(value) ? value : NOT_COERCIBLE;
  if (typeof value === 'string') {
    const text = value.trim();
    if (!NUMBER_TEXT.test(text)) return NOT_COERCIBLE;
    const parsed = Number(text);
    return Number.isFinite(parsed) ? parsed : NOT_COERCIBLE;
  }
  return NOT_COERCIBLE;
}

/** Converts a value to a boolean: booleans, and `true/false/yes/no/1/0` strings (any case, trimmed). */
export function coerceBoolean(value: unknown): boolean | typeof NOT_COERCIBLE {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (TRUE_TEXT.has(text)) return true;
    if (FALSE_TEXT.has(text)) return false;
  }
  return NOT_COERCIBLE;
}

/** Counts Unicode code points (a surrogate pair is one character), as JSON Schema lengths do. */
export function countCodePoints(text: string): number {
  let count = text.length;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count -= 1;
        index += 1;
      }
    }
  }
  return count;
}
