import { buildCalculatorError } from './build-calculator-error';
import { CALCULATOR_LIMITS } from './calculator-limits';
import type { CalculatorToken } from './calculator-token';
import type { BinaryOperator, ExpressionNode, ParsedExpression } from './expression-node';

const SUM_OPERATORS: ReadonlySet<string> = new Set(['+', '-']);
const TERM_OPERATORS: ReadonlySet<string> = new Set(['*', '/', '//', '%']);

function describeToken(token: CalculatorToken): string {
  if (token.kind === 'end') return 'the end of the expression';
  if (token.kind === 'operator') return `'${token.value}' at character ${token.position}`;
  return `'${token.text}' at character ${token.position}`;
}

/**
 * Recursive-descent parser for Python's arithmetic grammar (`sum → term → factor → power → atom`):
 * `**` is right-associative and binds tighter than a unary sign on its left but not on its right
 * (`-2**2 == -4`, `2**-1 == 0.5`). Nodes are counted while parsing, and parsing stops as soon as the count
 * passes the limit, so no oversized tree is ever built or evaluated.
 */
class ExpressionParser {
  private index = 0;
  private nodeCount = 1;

  constructor(private readonly tokens: readonly CalculatorToken[]) {}

  parse(): ParsedExpression {
    const root = this.parseSum();
    const next = this.tokens[this.index];
    if (next.kind !== 'end') {
      if (next.kind === 'operator' && next.value === ')') {
        throw this.invalid(`unmatched ')' at character ${next.position}`);
      }
      throw this.invalid(`missing operator before ${describeToken(next)}`);
    }
    return { root, nodeCount: this.nodeCount };
  }

  private parseSum(): ExpressionNode {
    let left = this.parseTerm();
    for (;;) {
      const token = this.tokens[this.index];
      if (token.kind !== 'operator' || !SUM_OPERATORS.has(token.value)) return left;
      this.index += 1;
      this.count(2);
      const right = this.parseTerm();
      left = {
        type: 'binary',
        operator: token.value as BinaryOperator,
        left,
        right,
        position: token.position,
      };
    }
  }

  private parseTerm(): ExpressionNode {
    let left = this.parseFactor();
    for (;;) {
      const token = this.tokens[this.index];
      if (token.kind !== 'operator' || !TERM_OPERATORS.has(token.value)) return left;
      this.index += 1;
      this.count(2);
      const right = this.parseFactor();
      left = {
        type: 'binary',
        operator: token.value as BinaryOperator,
        left,
        right,
        position: token.position,
      };
    }
  }

  private parseFactor(): ExpressionNode {
    const token = this.tokens[this.index];
    if (token.kind === 'operator' && (token.value === '+' || token.value === '-')) {
      this.index += 1;
      this.count(2);
      const operand = this.parseFactor();
      return { type: 'unary', operator: token.value, operand, position: token.position };
    }
    return this.parsePower();
  }

  private parsePower(): ExpressionNode {
    const base = this.parseAtom();
    const token = this.tokens[this.index];
    if (token.kind === 'operator' && token.value === '(') {
      throw buildCalculatorError(
        `expression contains an unsupported operation: a call at character ${token.position} (functions are not ` +
          "available). Put an operator between a number and '('.",
      );
    }
    if (token.kind !== 'operator' || token.value !== '**') return base;
    this.index += 1;
    this.count(2);
    const exponent = this.parseFactor();
    return { type: 'binary', operator: '**', left: base, right: exponent, position: token.position };
  }

  private parseAtom(): ExpressionNode {
    const token = this.tokens[this.index];
    if (token.kind === 'integer' || token.kind === 'float') {
      this.index += 1;
      this.count(1);
      return { type: 'number', value: token.value, position: token.position };
    }
    if (token.kind === 'operator' && token.value === '(') {
      this.index += 1;
      const inner = this.parseSum();
      const closing = this.tokens[this.index];
      if (closing.kind === 'operator' && closing.value === ')') {
        this.index += 1;
        return inner;
      }
      if (closing.kind === 'end') throw this.invalid(`'(' at character ${token.position} is never closed`);
      throw this.invalid(`missing operator before ${describeToken(closing)}`);
    }
    throw this.invalid(`expected a number or '(' but found ${describeToken(token)}`);
  }

  private count(nodes: number): void {
    this.nodeCount += nodes;
    if (this.nodeCount > CALCULATOR_LIMITS.maxSyntaxNodes) {
      throw buildCalculatorError(
        `expressions are limited to ${CALCULATOR_LIMITS.maxSyntaxNodes} syntax nodes (each number counts 1, each ` +
          'operator 2, plus 1 for the whole expression). Split the calculation into several calls.',
      );
    }
  }

  private invalid(detail: string): Error {
    return buildCalculatorError(`expression is not valid arithmetic: ${detail}.`);
  }
}

/**
 * Parses the tokens of one arithmetic expression into a tree, counting its syntax nodes as Python does.
 *
 * @throws ToolInputError ("is not valid arithmetic") for a malformed expression, ("contains an unsupported
 * operation") for a call such as `2(3)`, and ("limited to 64 syntax nodes") as soon as the tree would grow
 * past the limit.
 */
export function parseExpression(tokens: readonly CalculatorToken[]): ParsedExpression {
  return new ExpressionParser(tokens).parse();
}
