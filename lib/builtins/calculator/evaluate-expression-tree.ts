import { applyBinaryOperator } from './apply-binary-operator';
import { checkPythonNumber } from './check-python-number';
import type { ExpressionNode, PythonNumber } from './expression-node';

/**
 * Evaluates a parsed expression left to right (Python's order), checking every literal and every
 * intermediate value, so the first error Python would raise is the one reported.
 *
 * @throws ToolInputError for any arithmetic error (see {@link applyBinaryOperator}).
 */
export function evaluateExpressionTree(node: ExpressionNode): PythonNumber {
  switch (node.type) {
    case 'number':
      return checkPythonNumber(node.value);
    case 'unary': {
      const operand = evaluateExpressionTree(node.operand);
      return node.operator === '-' ? -operand : operand;
    }
    case 'binary': {
      const left = evaluateExpressionTree(node.left);
      const right = evaluateExpressionTree(node.right);
      return applyBinaryOperator(node.operator, left, right, node.position);
    }
  }
}
