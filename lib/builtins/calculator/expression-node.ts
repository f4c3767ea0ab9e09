/** A binary operator of the calculator grammar, with Python's meaning. */
export type BinaryOperator = '+' | '-' | '*' | '/' | '//' | '%' | '**';

/** A Python number while computing: `bigint` for `int`, `number` for `float`. */
export type PythonNumber = bigint | number;

/** One node of a parsed arithmetic expression; `position` is the 1-based character of its token. */
export type ExpressionNode =
  | { readonly type: 'number'; readonly value: PythonNumber; readonly position: number }
  | {
      readonly type: 'unary';
      readonly operator: '+' | '-';
      readonly operand: ExpressionNode;
      readonly position: number;
    }
  | {
      readonly type: 'binary';
      readonly operator: BinaryOperator;
      readonly left: ExpressionNode;
      readonly right: ExpressionNode;
      readonly position: number;
    };

/** A parsed expression and its size as Python's `ast.walk` would count it. */
export interface ParsedExpression {
  /** The root node of the expression. */
  readonly root: ExpressionNode;
  /** Root + literals + 2 per unary operation + 2 per binary operation (parentheses do not count). */
  readonly nodeCount: number;
}
