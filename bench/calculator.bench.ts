import { calculator } from '../lib/builtins/calculator/calculator';
import { evaluateArithmetic } from '../lib/builtins/calculator/evaluate-arithmetic';
import { parseExpression } from '../lib/builtins/calculator/parse-expression';
import { tokenizeExpression } from '../lib/builtins/calculator/tokenize-expression';
import type { BenchRow } from './measure';
import { measureMicros, measureSyncMicros } from './measure';

const LENGTH = 256;

/** Pads an expression to exactly 256 characters with spaces after its first '(' (spaces are still scanned). */
function padTo256(expression: string): string {
  const gap = LENGTH - expression.length;
  if (gap < 0)
    throw new RangeError(`bench expression is ${expression.length} characters, more than ${LENGTH}`);
  const open = expression.indexOf('(') + 1;
  return `${expression.slice(0, open)}${' '.repeat(gap)}${expression.slice(open)}`;
}

/** Integer and float arithmetic only (no powers): 64 syntax nodes, the limit. */
const ARITHMETIC = padTo256(
  '(123456789.125 + 987654321) * 3.75 // 7 - 45678.125 / 3.5 % 1000003.5 + 1099511627776 // 12345 - -98765.5 % ' +
    '4321 * 1.000001 + 7.25e3 / 2.5 - 31415926535.897 // 271828.18 + 0.001 * 0.5 - 6.02214076e23 / 1.380649e-23 % 97',
);
/** Exact integers far beyond 2**53 while computing (BigInt), returned exactly. */
const BIG_INTEGERS = padTo256(
  '(2 ** 100 * 2 ** 50 + 12345678901234567890) * (3 ** 60 - 98765432109876543210) // (7 ** 80) + (10 ** 40 + 7) % ' +
    '10 ** 12 - 123456789012345678901234567890 // 987654321987654321 % 1000000007',
);
/** Float powers with whole and fractional exponents (correctly rounded through BigInt). */
const POWERS = padTo256(
  '(1.000123456789 ** 100 + 2.5000000001 ** 3 - 1.5 ** 0.5 * 3.14159265358979) / (10.0 ** 2 + 7.77777777 ** 0.25) ' +
    '- 123.456789012 ** 1.5 % 97.5 + 81.0000001 ** 0.25 * 2.0000000000001 ** 0.5',
);

const EXPRESSIONS: ReadonlyArray<readonly [string, string]> = [
  ['int and float arithmetic', ARITHMETIC],
  ['exact big integers', BIG_INTEGERS],
  ['float powers (whole and fractional exponents)', POWERS],
];

/**
 * The floor: a minimal recursive-descent evaluator over JS doubles written for this bench — the same
 * grammar and operators, but no BigInt, no limits, no intermediate checks, no positions, no Python
 * rounding (`//` as Math.floor(a / b), `**` as V8's). It is what "just parse and compute 256 characters in
 * JavaScript" costs, not a safe or Python-exact calculator.
 */
function evaluateUnchecked(source: string): number {
  let index = 0;
  const skip = (): void => {
    while (source.charCodeAt(index) === 32) index += 1;
  };
  const at = (code: number): boolean => source.charCodeAt(index) === code;
  const atom = (): number => {
    skip();
    if (at(40)) {
      index += 1;
      const value = sum();
      skip();
      index += 1;
      return value;
    }
    const start = index;
    for (;;) {
      const code = source.charCodeAt(index);
      const previous = source.charCodeAt(index - 1) | 0x20;
      const isNumberPart = (code >= 48 && code <= 57) || code === 46 || code === 95 || (code | 0x20) === 101;
      if (isNumberPart || (previous === 101 && (code === 43 || code === 45))) index += 1;
      else break;
    }
    return Number(source.slice(start, index));
  };
  const factor = (): number => {
    skip();
    if (at(45)) {
      index += 1;
      return -factor();
    }
    if (at(43)) {
      index += 1;
      return factor();
    }
    const base = atom();
    skip();
    if (at(42) && source.charCodeAt(index + 1) === 42) {
      index += 2;
      return base ** factor();
    }
    return base;
  };
  const term = (): number => {
    let value = factor();
    for (;;) {
      skip();
      if (at(42) && source.charCodeAt(index + 1) === 42) return value;
      if (at(47) && source.charCodeAt(index + 1) === 47) {
        index += 2;
        value = Math.floor(value / factor());
      } else if (at(42)) {
        index += 1;
        value *= factor();
      } else if (at(47)) {
        index += 1;
        value /= factor();
      } else if (at(37)) {
        index += 1;
        const divisor = factor();
        value = ((value % divisor) + divisor) % divisor;
      } else return value;
    }
  };
  const sum = (): number => {
    let value = term();
    for (;;) {
      skip();
      if (at(43)) {
        index += 1;
        value += term();
      } else if (at(45)) {
        index += 1;
        value -= term();
      } else return value;
    }
  };
  return sum();
}

function perSecond(micros: number): number {
  return 1e6 / micros;
}

/** Calculator evaluations per second on 256-character expressions, against an unchecked JS evaluator. */
export async function runCalculatorBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const tool = calculator();
  for (const [label, expression] of EXPRESSIONS) {
    const { nodeCount } = parseExpression(tokenizeExpression(expression));
    const checked = evaluateArithmetic(expression).result;
    const unchecked = evaluateUnchecked(expression);
    const floor = measureSyncMicros(() => evaluateUnchecked(expression), { iterations: 20_000 });
    const evaluate = measureSyncMicros(() => evaluateArithmetic(expression), { iterations: 5_000 });
    const call = await measureMicros(() => tool.call({ expression }), { iterations: 5_000 });
    const shape = `${expression.length} chars, ${nodeCount} nodes`;
    rows.push(
      {
        group: 'calculator',
        name: `floor: unchecked JS double evaluator, ${label}`,
        value: perSecond(floor),
        unit: 'evals/s',
        ratio: 1,
        note: `${shape}; hand-written in the bench, no limits or Python rounding (gives ${unchecked})`,
      },
      {
        group: 'calculator',
        name: `evaluateArithmetic, ${label}`,
        value: perSecond(evaluate),
        unit: 'evals/s',
        ratio: evaluate / floor,
        note: `ratio = times slower than the floor; tokenizer + parser + checked Python arithmetic (gives ${checked})`,
      },
      {
        group: 'calculator',
        name: `calculator().call, ${label}`,
        value: perSecond(call),
        unit: 'evals/s',
        ratio: call / floor,
        note: 'ratio = times slower than the floor; adds schema validation and the promise',
      },
    );
  }
  return rows;
}
