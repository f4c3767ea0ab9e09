/** JavaScript's `\s` (ECMA-262 WhiteSpace and LineTerminator) as code point ranges. */
const JS_WHITESPACE: ReadonlyArray<readonly [number, number]> = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const MAX_CODE_POINT = 0x10ffff;

const hex = (codePoint: number): string => `\\x{${codePoint.toString(16)}}`;
const toRanges = (ranges: ReadonlyArray<readonly [number, number]>): string =>
  ranges.map(([low, high]) => (low === high ? hex(low) : `${hex(low)}-${hex(high)}`)).join('');

function complement(ranges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const result: Array<[number, number]> = [];
  let next = 0;
  for (const [low, high] of ranges) {
    if (low > next) result.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}

const SPACE_RANGES = toRanges(JS_WHITESPACE);
const NON_SPACE_RANGES = toRanges(complement(JS_WHITESPACE));
/** JavaScript's `.` without the `s` flag: anything but a line terminator. */
const JS_DOT = `[^\\n\\r${hex(0x2028)}${hex(0x2029)}]`;
const ANY = `[${hex(0)}-${hex(MAX_CODE_POINT)}]`;
const NOTHING = `[^${hex(0)}-${hex(MAX_CODE_POINT)}]`;
const UNICODE_PROPERTY_PREFIX = /^(?:Script|sc|General_Category|gc)=/;

/** Why a pattern cannot be translated (back-references, look-arounds). */
export class UnsupportedPatternSyntax {
  constructor(readonly reason: string) {}
}

/**
 * Rewrites an ECMA-262 pattern (JSON Schema's dialect, read with the `u` flag) into RE2 syntax with the same
 * meaning: `\uXXXX`, `\u{…}`, surrogate pairs, `\cX` and `\0` become `\x{…}`; `\s`, `\S` and `.` get
 * JavaScript's Unicode whitespace and line terminators; `[^]` and `[]` are spelled out; `(?<name>` becomes
 * `(?P<name>`; `\p{Script=Greek}` becomes `\p{Greek}`. Back-references and look-arounds have no linear-time
 * equivalent and are reported.
 *
 * @returns the RE2 source, or an {@link UnsupportedPatternSyntax} saying what RE2 cannot run.
 */
export function toRe2Pattern(source: string): string | UnsupportedPatternSyntax {
  let output = '';
  let inClass = false;
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index];
    if (char === '\\') {
      const escape = readEscape(source, index, inClass);
      if (escape instanceof UnsupportedPatternSyntax) return escape;
      output += escape.text;
      index = escape.end - 1;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      output += char === '[' ? '\\[' : char;
      continue;
    }
    if (char === '[') {
      if (source.startsWith('[^]', index)) {
        output += ANY;
        index += 2;
      } else if (source.startsWith('[]', index)) {
        output += NOTHING;
        index += 1;
      } else {
        inClass = true;
        output += char;
        if (source[index + 1] === '^') {
          output += '^';
          index += 1;
        }
      }
      continue;
    }
    if (char === '.') {
      output += JS_DOT;
      continue;
    }
    if (char === '(' && source[index + 1] === '?') {
      const rest = source.slice(index + 2, index + 4);
      if (rest.startsWith('=') || rest.startsWith('!') || rest === '<=' || rest === '<!')
        return new UnsupportedPatternSyntax('look-arounds such as (?=…) and (?<!…)');
      if (rest.startsWith('<')) {
        output += '(?P<';
        index += 2;
        continue;
      }
    }
    output += char;
  }
  return output;
}

function readEscape(
  source: string,
  index: number,
  inClass: boolean,
): { text: string; end: number } | UnsupportedPatternSyntax {
  const next = source[index + 1];
  if (next === undefined) return { text: '\\\\', end: index + 1 };
  if (next >= '1' && next <= '9') return new UnsupportedPatternSyntax('back-references such as \\1');
  if (next === 'k' && source[index + 2] === '<')
    return new UnsupportedPatternSyntax('named back-references such as \\k<name>');
  if (next === 'b' && inClass) return { text: hex(8), end: index + 2 };
  if (next === 's') return { text: inClass ? SPACE_RANGES : `[${SPACE_RANGES}]`, end: index + 2 };
  if (next === 'S') return { text: inClass ? NON_SPACE_RANGES : `[${NON_SPACE_RANGES}]`, end: index + 2 };
  if (next === '0' && !/[0-9]/.test(source[index + 2] ?? '')) return { text: hex(0), end: index + 2 };
  if (next === 'c' && /[A-Za-z]/.test(source[index + 2] ?? ''))
    return { text: hex(source.charCodeAt(index + 2) % 32), end: index + 3 };
  if (next === 'u') return readUnicodeEscape(source, index);
  if ((next === 'p' || next === 'P') && source[index + 2] === '{') {
    const close = source.indexOf('}', index + 3);
    if (close === -1) return { text: `\\${next}`, end: index + 2 };
    const name = source.slice(index + 3, close).replace(UNICODE_PROPERTY_PREFIX, '');
    return { text: `\\${next}{${name}}`, end: close + 1 };
  }
  return { text: `\\${next}`, end: index + 2 };
}

function readUnicodeEscape(source: string, index: number): { text: string; end: number } {
  if (source[index + 2] === '{') {
    const close = source.indexOf('}', index + 3);
    const digits = close === -1 ? '' : source.slice(index + 3, close);
    if (/^[0-9A-Fa-f]{1,6}$/.test(digits)) return { text: `\\x{${digits}}`, end: close + 1 };
    return { text: '\\u', end: index + 2 };
  }
  const unit = readHexUnit(source, index + 2);
  if (unit === null) return { text: '\\u', end: index + 2 };
  if (unit >= 0xd800 && unit <= 0xdbff && source.startsWith('\\u', index + 6)) {
    const low = readHexUnit(source, index + 8);
    if (low !== null && low >= 0xdc00 && low <= 0xdfff) {
      return { text: hex(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00)), end: index + 12 };
    }
  }
  return { text: hex(unit), end: index + 6 };
}

function readHexUnit(source: string, start: number): number | null {
  const digits = source.slice(start, start + 4);
  return /^[0-9A-Fa-f]{4}$/.test(digits) ? Number.parseInt(digits, 16) : null;
}
