import { buildCalculatorError } from './build-calculator-error';
import { CALCULATOR_LIMITS } from './calculator-limits';
import type { PythonNumber } from './expression-node';

const INTEGER_LIMIT = 1n << BigInt(CALCULATOR_LIMITS.maxIntegerBits);

/** The error for an integer that would pass the bit limit. */
export function buildIntegerSizeError(): Error {
  return buildCalculatorError(
    `integer results are limited to ${CALCULATOR_LIMITS.maxIntegerBits} bits; use a float (e.g. 2.0 instead of 2) ` +
      'for an approximate result, or smaller numbers.',
  );
}

/** The error for a float operation that overflowed (Python raises `OverflowError` there). */
export function buildOverflowError(): Error {
  return buildCalculatorError(
    `result exceeds the supported magnitude (floats are limited to +/-${CALCULATOR_LIMITS.maxAbsoluteFloat}).`,
  );
}

/**
 * Returns `value` when it is a bounded real number: an integer below 2 ** 4096 in magnitude, or a finite
 * float no larger than 1e308 in magnitude. Every literal and every intermediate result passes through here,
 * so a NaN or an infinity can never be hidden by a later operation (such as `** 0`).
 *
 * @throws ToolInputError ("integer results are limited to 4096 bits" or "result must be finite and within the
 * supported magnitude").
 */
export function checkPythonNumber(value: PythonNumber): PythonNumber {
  if (typeof value === 'bigint') {
    if (value >= INTEGER_LIMIT || value <= -INTEGER_LIMIT) throw buildIntegerSizeError();
    return value;
  }
  if (!(Math.abs(value) <= CALCULATOR_LIMITS.maxAbsoluteFloat)) {
    throw buildCalculatorError(
      `result must be finite and within the supported magnitude (|x| <= ${CALCULATOR_LIMITS.maxAbsoluteFloat}); ` +
        'the calculation overflowed or is undefined.',
    );
  }
  return value;
}

/**
 * Converts an operand to a float the way Python's `float(int)` does (correctly rounded).
 *
 * @throws ToolInputError ("result exceeds the supported magnitude") when the integer is too large for a double.
 */
export function toPythonFloat(value: PythonNumber): number {
  if (typeof value === 'number') return value;
  const converted = Number(value);
  if (!Number.isFinite(converted)) throw buildOverflowError();
  return converted;
}
