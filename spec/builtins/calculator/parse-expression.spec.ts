import { ToolInputError } from '../../../lib/errors/tool-input-error';
import type { ExpressionNode } from '../../../lib/builtins/calculator/expression-node';
import { parseExpression } from '../../../lib/builtins/calculator/parse-expression';
import { tokenizeExpression } from '../../../lib/builtins/calculator/tokenize-expression';

function parse(expression: string) {
  return parseExpression(tokenizeExpression(expression));
}

/** Renders a tree with explicit parentheses, to show precedence and associativity. */
function render(node: ExpressionNode): string {
  if (node.type === 'number') return String(node.value);
  if (node.type === 'unary') return `(${node.operator}${render(node.operand)})`;
  return `(${render(node.left)} ${node.operator} ${render(node.right)})`;
}

describe('parseExpression', () => {
  describe('parseExpression()', () => {
    it.each([
      ['1 + 2 * 3', '(1 + (2 * 3))'],
      ['1 - 2 - 3', '((1 - 2) - 3)'],
      ['8 / 4 // 2 % 3 * 5', '((((8 / 4) // 2) % 3) * 5)'],
      ['2 ** 3 ** 2', '(2 ** (3 ** 2))'],
      ['-2 ** 2', '(-(2 ** 2))'],
      ['2 ** -1', '(2 ** (-1))'],
      ['-2 ** -2 ** -1', '(-(2 ** (-(2 ** (-1)))))'],
      ['2 * -3 ** 2', '(2 * (-(3 ** 2)))'],
      ['(1 + 2) * 3', '((1 + 2) * 3)'],
      ['+-1', '(+(-1))'],
      ['((((7))))', '7'],
    ])('parses %s as %s', (expression, tree) => {
      expect(render(parse(expression).root)).toBe(tree);
    });

    it('counts nodes as Python does: the root, each literal, and two per operator', () => {
      expect(parse('1').nodeCount).toBe(2);
      expect(parse('1+1').nodeCount).toBe(5);
      expect(parse('-1').nodeCount).toBe(4);
      expect(parse('(1)').nodeCount).toBe(2);
      expect(parse(Array(21).fill('1').join('+')).nodeCount).toBe(62);
      expect(parse(`${'-'.repeat(31)}1`).nodeCount).toBe(64);
    });

    it('stops with the node limit error as soon as the tree passes 64 nodes', () => {
      expect(() => parse(Array(22).fill('1').join('+'))).toThrow(ToolInputError);
      expect(() => parse(Array(22).fill('1').join('+'))).toThrow(
        'calculator expressions are limited to 64 syntax nodes',
      );
      // The limit is hit before the syntax error at the end is reached.
      expect(() => parse(`${Array(40).fill('1').join('+')} +`)).toThrow('limited to 64 syntax nodes');
    });

    it('records the 1-based position of each operator', () => {
      const root = parse('10 // 0').root;
      expect(root.type === 'binary' && root.position).toBe(4);
    });

    it('rejects malformed expressions as not valid arithmetic', () => {
      expect(() => parse('(1 + 2')).toThrow(
        "calculator expression is not valid arithmetic: '(' at character 1 is never closed.",
      );
      expect(() => parse('1 + 2)')).toThrow(
        "calculator expression is not valid arithmetic: unmatched ')' at character 6.",
      );
      expect(() => parse('')).toThrow(
        "calculator expression is not valid arithmetic: expected a number or '(' but found the end of the expression.",
      );
    });

    it('rejects a number followed by parentheses as a call', () => {
      expect(() => parse('2 (3)')).toThrow(
        'calculator expression contains an unsupported operation: a call at character 3',
      );
    });
  });
});
