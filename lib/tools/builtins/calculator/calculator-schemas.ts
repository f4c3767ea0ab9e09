import type { JsonSchema } from '../../json-schema';
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

/** Builds the output JSON Schema of `calculator`: a closed object whose `result` is an integer or a number. */
export function buildCalculatorOutputSchema(): JsonSchema {
  return {
    type: 'object',
    properties: {
      expression: { type: 'string' },
      result: { anyOf: [{ type: 'integer' }, { type: 'number' }] },
    },
    required: ['expression', 'result'],
    additionalProperties: false,
  };
}
