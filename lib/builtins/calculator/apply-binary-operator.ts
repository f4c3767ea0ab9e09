import { buildCalculatorError } from './build-calculator-error';
import { CALCULATOR_LIMITS } from './calculator-limits';
import {
  buildIntegerSizeError,
  buildOverflowError,
  checkPythonNumber,
  toPythonFloat,
} from './check-python-number';
import { divideIntegersToFloat } from './divide-integers-to-float';
import type { BinaryOperator, PythonNumber } from './expression-node';
import { countIntegerBits } from './count-integer-bits';
import { raiseToFractionalPower } from './raise-to-fractional-power';
import { raiseToIntegerPower } from './raise-to-integer-power';
import { pythonFloatFloorDivide, pythonFloatModulo } from './python-float-division';

/** Operands below this magnitude can be multiplied without any chance of passing the bit limit. */
const HALF_LIMIT = 1n << BigInt(CALCULATOR_LIMITS.maxIntegerBits / 2);

function divisionByZero(operator: BinaryOperator, position: number): Error {
  const what =
    operator === '**' ? 'zero raised to a negative power' : `the right operand of '${operator}' is zero`;
  return buildCalculatorError(`cannot divide by zero: ${what} (operator at character ${position}).`);
}

function checkExponent(exponent: PythonNumber, position: number): void {
  const limit = CALCULATOR_LIMITS.maxExponent;
  const tooLarge =
    typeof exponent === 'bigint'
      ? exponent > BigInt(limit) || exponent < -BigInt(limit)
      : Math.abs(exponent) > limit;
  if (tooLarge) {
    throw buildCalculatorError(
      `exponents are limited to +/-${limit}; the exponent of '**' at character ${position} is ${String(exponent)}.`,
    );
  }
}

/** Python's float `**` (CPython `float_pow`) for finite operands, with the exponent already bounded. */
function powerOfFloats(base: number, exponent: number, position: number): number {
  if (exponent === 0 || base === 1) return 1;
  if (base === 0 && exponent < 0) throw divisionByZero('**', position);
  if (base < 0 && !Number.isInteger(exponent)) {
    throw buildCalculatorError(
      `accepts real numbers only: a negative base raised to a fractional power (operator '**' at character ${position}) ` +
        'is a complex number.',
    );
  }
  let result: number;
  if (base === 0) result = base ** exponent;
  else if (Number.isInteger(exponent)) result = raiseToIntegerPower(base, exponent);
  else result = raiseToFractionalPower(base, exponent);
  if (!Number.isFinite(result)) throw buildOverflowError();
  return result;
}

function integerPower(base: bigint, exponent: bigint, position: number): PythonNumber {
  if (exponent < 0n) {
    if (base === 0n) throw divisionByZero('**', position);
    return powerOfFloats(toPythonFloat(base), Number(exponent), position);
  }
  const estimatedBits = Math.max(1, countIntegerBits(base)) * Number(exponent);
  if (estimatedBits > CALCULATOR_LIMITS.maxIntegerBits) throw buildIntegerSizeError();
  return base ** exponent;
}

function integerOperation(
  operator: BinaryOperator,
  left: bigint,
  right: bigint,
  position: number,
): PythonNumber {
  switch (operator) {
    case '+':
      return left + right;
    case '-':
      return left - right;
    case '*': {
      const large = left >= HALF_LIMIT || left <= -HALF_LIMIT || right >= HALF_LIMIT || right <= -HALF_LIMIT;
      if (large && countIntegerBits(left) + countIntegerBits(right) - 1 > CALCULATOR_LIMITS.maxIntegerBits) {
        throw buildIntegerSizeError();
      }
      return left * right;
    }
    case '/': {
      if (right === 0n) throw divisionByZero(operator, position);
      const quotient = divideIntegersToFloat(left, right);
      if (!Number.isFinite(quotient)) throw buildOverflowError();
      return quotient;
    }
    case '//': {
      if (right === 0n) throw divisionByZero(operator, position);
      const quotient = left / right;
      return left % right !== 0n && left < 0n !== right < 0n ? quotient - 1n : quotient;
    }
    case '%': {
      if (right === 0n) throw divisionByZero(operator, position);
      const remainder = left % right;
      return remainder !== 0n && remainder < 0n !== right < 0n ? remainder + right : remainder;
    }
    case '**':
      return integerPower(left, right, position);
  }
}

function floatOperation(operator: BinaryOperator, left: number, right: number, position: number): number {
  switch (operator) {
    case '+':
      return left + right;
    case '-':
      return left - right;
    case '*':
      return left * right;
    case '/':
      if (right === 0) throw divisionByZero(operator, position);
      return left / right;
    case '//':
      if (right === 0) throw divisionByZero(operator, position);
      return pythonFloatFloorDivide(left, right);
    case '%':
      if (right === 0) throw divisionByZero(operator, position);
      return pythonFloatModulo(left, right);
    case '**':
      return powerOfFloats(left, right, position);
  }
}

/**
 * Applies one binary operator with Python's semantics to two checked operands and checks the result:
 * `int op int` stays an exact integer (except `/`, and `**` with a negative exponent, which give floats);
 * a float operand turns the other into a float first. Limits are checked before the work they bound: the
 * exponent and the estimated size of an integer power before raising, the size of a product before
 * multiplying.
 *
 * @throws ToolInputError for a zero divisor, an exponent beyond +/-100, an integer beyond 4096 bits, a
 * float beyond 1e308 or not finite, or a complex result.
 */
export function applyBinaryOperator(
  operator: BinaryOperator,
  left: PythonNumber,
  right: PythonNumber,
  position: number,
): PythonNumber {
  if (operator === '**') checkExponent(right, position);
  if (typeof left === 'bigint' && typeof right === 'bigint') {
    return checkPythonNumber(integerOperation(operator, left, right, position));
  }
  return checkPythonNumber(floatOperation(operator, toPythonFloat(left), toPythonFloat(right), position));
}
