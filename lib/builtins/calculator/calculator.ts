import { lazyRequire } from '../../runtime/lazy-require';
import { NativeTool } from '../../tools/native-tool';
import { buildCalculatorInputSchema, buildCalculatorOutputSchema } from './calculator-schemas';
import { CALCULATOR_TOOL_NAME } from './calculator-limits';

// The tokenizer, parser and evaluator load with the first call, not on import.
const loadEvaluator = lazyRequire((): typeof import('./evaluate-arithmetic') =>
  require('./evaluate-arithmetic'),
);

const DESCRIPTION =
  'Evaluate bounded arithmetic with numbers, parentheses and +, -, *, /, //, %, or ** using Python semantics ' +
  '(integers are exact; / always gives a float; an integer beyond 2**53 - 1 is returned as a string of its ' +
  'exact digits). No names, functions or variables: this tool never executes ' +
  'code. Limits: 256 characters, 64 syntax nodes, exponents up to +/-100.';

/**
 * Creates a fresh `calculator` tool (no capability; tags builtin, math, read-only). It evaluates one
 * arithmetic expression with its own tokenizer and parser, never `eval` or `Function`, and returns
 * `{ expression, result }`.
 */
export function calculator(): NativeTool {
  return new NativeTool({
    name: CALCULATOR_TOOL_NAME,
    description: DESCRIPTION,
    inputSchema: buildCalculatorInputSchema(),
    outputSchema: buildCalculatorOutputSchema(),
    tags: ['builtin', 'math', 'read-only'],
    capabilities: [],
    examples: [{ expression: '(18 * 4) + 3' }],
    metadata: { builtin: { id: CALCULATOR_TOOL_NAME, options: {} } },
    func: (args) => loadEvaluator().evaluateArithmetic(args.expression as string),
  });
}
