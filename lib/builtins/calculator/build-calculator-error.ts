import { ToolInputError } from '../../errors/tool-input-error';
import { CALCULATOR_TOOL_NAME } from './calculator-limits';

/**
 * Builds the `ToolInputError` every calculator failure is: the message starts with `calculator` and keeps
 * the reference wording (e.g. `calculator cannot divide by zero`) followed by a hint on how to fix it.
 */
export function buildCalculatorError(message: string): ToolInputError {
  return new ToolInputError(`${CALCULATOR_TOOL_NAME} ${message}`, { toolName: CALCULATOR_TOOL_NAME });
}
