import { buildCalculatorError } from './build-calculator-error';
import type { CalculatorToken } from './calculator-token';

/** Returns whether the UTF-16 code at `index` is an ASCII digit. */
export function isDigitAt(source: string, index: number): boolean {
  const code = source.charCodeAt(index);
  return code >= 48 && code <= 57;
}

/** Returns whether the code at `index` could continue a Python name or number (`[A-Za-z0-9_]`). */
export function isWordCharacterAt(source: string, index: number): boolean {
  const code = source.charCodeAt(index);
  return (
    (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95
  );
}

const RADIX_DIGITS: Record<string, RegExp> = { x: /[0-9a-f]/i, o: /[0-7]/, b: /[01]/ };
/** `x`, `o` and `b` (lower case; `| 0x20` folds upper case onto them). */
const RADIX_PREFIX_CODES = new Set([0x78, 0x6f, 0x62]);
const RADIX_NAMES: Record<string, string> = { x: 'hexadecimal', o: 'octal', b: 'binary' };

/** Scans `digit (["_"] digit)*` from `start`; returns the index after it (== start when there is no digit). */
function scanDigitPart(source: string, start: number): number {
  if (!isDigitAt(source, start)) return start;
  let index = start + 1;
  for (;;) {
    if (isDigitAt(source, index)) index += 1;
    else if (source.charCodeAt(index) === 95 && isDigitAt(source, index + 1)) index += 2;
    else return index;
  }
}

function invalidLiteral(source: string, start: number, end: number, reason: string): never {
  const shown = source.slice(start, Math.min(end + 1, start + 40));
  throw buildCalculatorError(
    `expression is not valid arithmetic: '${shown}' at character ${start + 1} ${reason}.`,
  );
}

function readRadixLiteral(source: string, start: number): { token: CalculatorToken; end: number } {
  const radix = source[start + 1].toLowerCase();
  const digit = RADIX_DIGITS[radix];
  let index = start + 2;
  let digits = '';
  for (;;) {
    const char = source[index];
    if (char !== undefined && digit.test(char)) {
      digits += char;
      index += 1;
    } else if (char === '_' && source[index + 1] !== undefined && digit.test(source[index + 1])) {
      index += 1;
    } else break;
  }
  if (digits.length === 0 || isWordCharacterAt(source, index)) {
    invalidLiteral(source, start, index, `is not a valid ${RADIX_NAMES[radix]} literal`);
  }
  const text = source.slice(start, index);
  return {
    token: { kind: 'integer', value: BigInt(`0${radix}${digits}`), text, position: start + 1 },
    end: index,
  };
}

/**
 * Reads one Python numeric literal starting at `start` (a digit, or `.` before a digit): decimal integers
 * (no leading zeros), `0x`/`0o`/`0b` integers, floats such as `1.`, `.5`, `1e3`, with `_` between digits.
 *
 * @throws ToolInputError for a malformed literal (`1_`, `1e`, `0123`, `0x`, `12abc`) or an imaginary one (`2j`).
 */
export function readNumberLiteral(source: string, start: number): { token: CalculatorToken; end: number } {
  if (source.charCodeAt(start) === 48 && RADIX_PREFIX_CODES.has(source.charCodeAt(start + 1) | 0x20)) {
    return readRadixLiteral(source, start);
  }
  let index = scanDigitPart(source, start);
  const integerDigits = index > start;
  let isFloat = false;
  if (source[index] === '.') {
    isFloat = true;
    index = scanDigitPart(source, index + 1);
  }
  if (source[index] === 'e' || source[index] === 'E') {
    let exponentStart = index + 1;
    if (source[exponentStart] === '+' || source[exponentStart] === '-') exponentStart += 1;
    const exponentEnd = scanDigitPart(source, exponentStart);
    if (exponentEnd === exponentStart)
      invalidLiteral(source, start, exponentStart, 'has an exponent without digits');
    isFloat = true;
    index = exponentEnd;
  }
  if (source[index] === 'j' || source[index] === 'J') {
    const shown = source.slice(start, index + 1);
    throw buildCalculatorError(
      `accepts real numbers only: '${shown}' at character ${start + 1} is an imaginary (complex) number.`,
    );
  }
  if (isWordCharacterAt(source, index)) invalidLiteral(source, start, index, 'is not a valid number');
  const text = source.slice(start, index);
  const plain = text.includes('_') ? text.replace(/_/g, '') : text;
  if (isFloat)
    return { token: { kind: 'float', value: Number(plain), text, position: start + 1 }, end: index };
  if (integerDigits && plain.length > 1 && plain[0] === '0' && plain.replace(/0/g, '') !== '') {
    invalidLiteral(
      source,
      start,
      index - 1,
      `has leading zeros, which Python does not permit in decimal integers (write ${plain.replace(/^0+/, '')}, or 0o${plain.replace(/^0+/, '')} for octal)`,
    );
  }
  // Parsing a short decimal through Number is exact (below 2**53) and several times faster than BigInt(string).
  const value = plain.length <= 15 ? BigInt(Number(plain)) : BigInt(plain);
  return { token: { kind: 'integer', value, text, position: start + 1 }, end: index };
}
