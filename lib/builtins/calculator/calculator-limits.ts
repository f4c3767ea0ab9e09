/** The name every `calculator` tool has. */
export const CALCULATOR_TOOL_NAME = 'calculator';

/** Fixed limits of `calculator` (reference section 1N, CL-2 and CL-3). */
export const CALCULATOR_LIMITS = Object.freeze({
  /** Longest expression, in code points (the raw string in the schema, the trimmed one in the tool). */
  maxExpressionLength: 256,
  /** Most syntax-tree nodes, counted as Python's `ast.walk` does: root, literals, operator nodes and tokens. */
  maxSyntaxNodes: 64,
  /** Largest absolute exponent of `**`, for integers and floats alike. */
  maxExponent: 100,
  /** Largest integer, in bits, at any step of the computation. */
  maxIntegerBits: 4096,
  /** Largest absolute float at any step of the computation. */
  maxAbsoluteFloat: 1e308,
  /**
   * Largest absolute integer returned as a JSON number (`Number.MAX_SAFE_INTEGER`); a larger one is returned
   * as a string of its exact decimal digits, since a JSON number past it loses digits in most parsers.
   */
  maxIntegerAsNumber: 2n ** 53n - 1n,
});
