import { buildCalculatorError } from './build-calculator-error';
import { CALCULATOR_LIMITS } from './calculator-limits';
import { evaluateExpressionTree } from './evaluate-expression-tree';
import { parseExpression } from './parse-expression';
import { tokenizeExpression } from './tokenize-expression';

/** What `calculator` returns: the trimmed expression and its exact value. */
export interface CalculatorResult {
  /** The expression as evaluated (the input, trimmed). */
  expression: string;
  /**
   * The value: a finite float with |x| <= 1e308 or a safe integer (|n| <= 2**53 - 1) as a number; an integer
   * beyond that (up to 4096 bits) as a string of its exact decimal digits, e.g. `'1267650600228229401496703205376'`
   * for `2**100` (`BigInt(result)` reads it back).
   */
  result: number | string;
}

function countCodePoints(text: string, stopAfter: number): number {
  let count = 0;
  for (let index = 0; index < text.length && count <= stopAfter; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index += 1;
    }
    count += 1;
  }
  return count;
}

/**
 * Evaluates one arithmetic expression with Python's numeric semantics, without `eval` or `Function`: the
 * length is checked first, then the expression is tokenized, parsed (counting syntax nodes) and evaluated
 * with every intermediate value checked. Integers are exact (BigInt) throughout: one within
 * `Number.MAX_SAFE_INTEGER` is returned as a number, a larger one as a string of its exact digits.
 *
 * @throws ToolInputError ("must not be empty", "is not valid arithmetic", "contains an unsupported
 * operation", "accepts real numbers only", "limited to 64 syntax nodes", "cannot divide by zero",
 * "exponents are limited to +/-100", "integer results are limited to 4096 bits", "result must be finite and
 * within the supported magnitude").
 */
export function evaluateArithmetic(expression: string): CalculatorResult {
  if (typeof expression !== 'string') {
    throw buildCalculatorError(
      `expression must be a string such as '(18 * 4) + 3', got ${expression === null ? 'null' : typeof expression}.`,
    );
  }
  const candidate = expression.trim();
  if (candidate.length === 0) throw buildCalculatorError('expression must not be empty.');
  const maxLength = CALCULATOR_LIMITS.maxExpressionLength;
  if (candidate.length > maxLength && countCodePoints(candidate, maxLength) > maxLength) {
    throw buildCalculatorError(`expression must be at most ${maxLength} characters; split the calculation.`);
  }
  const { root } = parseExpression(tokenizeExpression(candidate));
  const value = evaluateExpressionTree(root);
  if (typeof value === 'number') return { expression: candidate, result: value };
  const limit = CALCULATOR_LIMITS.maxIntegerAsNumber;
  // A JSON number past 2**53 loses digits in most parsers (JavaScript's included), so it goes out as text.
  if (value > limit || value < -limit) return { expression: candidate, result: value.toString() };
  return { expression: candidate, result: Number(value) };
}
