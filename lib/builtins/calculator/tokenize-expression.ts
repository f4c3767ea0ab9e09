import { buildCalculatorError } from './build-calculator-error';
import type { CalculatorOperator, CalculatorToken } from './calculator-token';
import { isDigitAt, isWordCharacterAt, readNumberLiteral } from './read-number-literal';

/** The one-character operators and brackets, by UTF-16 code (`*` and `/` may be doubled). */
const OPERATOR_BY_CODE: ReadonlyMap<number, CalculatorOperator> = new Map(
  (['+', '-', '*', '/', '%', '(', ')'] as const).map((operator) => [operator.charCodeAt(0), operator]),
);

/** Python operators and brackets that parse in Python but are not arithmetic this tool evaluates. */
const UNSUPPORTED_SYMBOLS: ReadonlyArray<readonly [string, string]> = [
  ['==', 'comparisons'],
  ['!=', 'comparisons'],
  ['<=', 'comparisons'],
  ['>=', 'comparisons'],
  ['<<', 'bit shifts'],
  ['>>', 'bit shifts'],
  [':=', 'assignment expressions'],
  ['<', 'comparisons'],
  ['>', 'comparisons'],
  ['&', 'bitwise operators'],
  ['|', 'bitwise operators'],
  ['^', 'bitwise operators'],
  ['~', 'bitwise operators'],
  ['@', 'matrix products'],
  [',', 'tuples and argument lists'],
  ['[', 'lists and indexing'],
  [']', 'lists and indexing'],
  ['{', 'sets and dictionaries'],
  ['}', 'sets and dictionaries'],
  ['.', 'attributes'],
];

const REAL_ONLY_NAMES = new Set(['True', 'False', 'None', 'Ellipsis', 'NotImplemented']);

function unsupported(what: string, position: number, kind: string): never {
  throw buildCalculatorError(
    `expression contains an unsupported operation: ${what} at character ${position} (${kind} are not available). ` +
      'Use only numbers, parentheses and + - * / // % **.',
  );
}

function readWord(source: string, start: number): never {
  let end = start;
  while (end < source.length && isWordCharacterAt(source, end)) end += 1;
  const word = source.slice(start, end);
  const shown = word.length > 40 ? `${word.slice(0, 40)}…` : word;
  if (REAL_ONLY_NAMES.has(word)) {
    throw buildCalculatorError(
      `accepts real numbers only: '${shown}' at character ${start + 1} is not a number (booleans and None are rejected).`,
    );
  }
  return unsupported(`the name '${shown}'`, start + 1, 'names, constants and functions');
}

function describeCharacter(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const hex = code.toString(16).toUpperCase().padStart(4, '0');
  return code >= 0x21 && code <= 0x7e ? `'${char}'` : `U+${hex}`;
}

/** Throws the error for a character that cannot start a token at `index`. */
function rejectCharacter(source: string, index: number): never {
  if (isWordCharacterAt(source, index)) readWord(source, index);
  const char = source[index];
  if (char === '"' || char === "'") {
    throw buildCalculatorError(
      `accepts real numbers only: the text in quotes at character ${index + 1} is not a number; write the number without quotes.`,
    );
  }
  const symbol = UNSUPPORTED_SYMBOLS.find(([text]) => source.startsWith(text, index));
  if (symbol) unsupported(`'${symbol[0]}'`, index + 1, symbol[1]);
  throw buildCalculatorError(
    `expression is not valid arithmetic: unexpected character ${describeCharacter(String.fromCodePoint(source.codePointAt(index) ?? 0))} ` +
      `at character ${index + 1}. Use ASCII digits, parentheses and + - * / // % ** only.`,
  );
}

/**
 * Splits an arithmetic expression into number and operator tokens, ending with an `end` token. Only ASCII
 * digits, `.`, `_`, the operators `+ - * / // % **`, parentheses and ASCII whitespace can form tokens.
 *
 * @throws ToolInputError ("is not valid arithmetic") for characters and literals Python would not parse,
 * ("contains an unsupported operation") for names and Python operators other than arithmetic, and
 * ("accepts real numbers only") for booleans, None, strings and imaginary literals.
 */
export function tokenizeExpression(source: string): CalculatorToken[] {
  const tokens: CalculatorToken[] = [];
  const length = source.length;
  let index = 0;
  while (index < length) {
    const code = source.charCodeAt(index);
    if (code === 32 || code === 9 || code === 10 || code === 13 || code === 12) {
      index += 1;
      continue;
    }
    if ((code >= 48 && code <= 57) || (code === 46 && isDigitAt(source, index + 1))) {
      const { token, end } = readNumberLiteral(source, index);
      tokens.push(token);
      index = end;
      continue;
    }
    const operator = OPERATOR_BY_CODE.get(code);
    if (operator !== undefined) {
      const doubled = (code === 42 || code === 47) && source.charCodeAt(index + 1) === code;
      const value = doubled ? (code === 42 ? '**' : '//') : operator;
      tokens.push({ kind: 'operator', value, position: index + 1 });
      index += doubled ? 2 : 1;
      continue;
    }
    rejectCharacter(source, index);
  }
  tokens.push({ kind: 'end', position: source.length + 1 });
  return tokens;
}
