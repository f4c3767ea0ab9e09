import type { JsonSchema } from '../../tools/json-schema';
import { CALCULATOR_LIMITS } from './calculator-limits';

/** Builds the input JSON Schema of `calculator` (a fresh object per tool). */
export function buildCalculatorInputSchema(): JsonSchema {
  return {
    type: 'object',
    properties: {
      expression: {
        type: 'string',
        minLength: 1,
        maxLength: CALCULATOR_LIMITS.maxExpressionLength,
        description:
          'Arithmetic expression using numbers, parentheses and +, -, *, /, //, %, or ** (Python semantics: ' +
          '/ is true division, // floors, % takes the sign of the divisor, -2**2 is -4).',
      },
    },
    required: ['expression'],
    additionalProperties: false,
  };
}

/** The form of an integer result past 2**53 - 1: its decimal digits, at least 16 of them, no leading zero. */
export const CALCULATOR_DIGITS_PATTERN = '^-?[1-9][0-9]{15,}$';

/**
 * Builds the output JSON Schema of `calculator`: a closed object whose `result` is an integer or a number,
 * or, for an integer past 2**53 - 1 in magnitude, a string of its exact decimal digits.
 */
export function buildCalculatorOutputSchema(): JsonSchema {
  return {
    type: 'object',
    properties: {
      expression: { type: 'string' },
      result: {
        anyOf: [
          { type: 'integer' },
          { type: 'number' },
          { type: 'string', pattern: CALCULATOR_DIGITS_PATTERN },
        ],
        description:
          'The value. A float, or an integer within +/-(2**53 - 1), is a number; a larger integer is a string ' +
          "of its exact decimal digits (2**100 gives '1267650600228229401496703205376').",
      },
    },
    required: ['expression', 'result'],
    additionalProperties: false,
  };
}
