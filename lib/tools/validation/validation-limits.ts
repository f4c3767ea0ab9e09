/** Bounds applied to untrusted argument objects before and while they are validated. */
export interface ValidationLimits {
  /** Deepest nesting of objects and arrays accepted (default 32). */
  maxDepth: number;
  /** Most values (objects, arrays, scalars) in one argument object (default 10,000). */
  maxNodes: number;
  /** Longest string accepted anywhere, in UTF-16 units (default 1,000,000). */
  maxStringLength: number;
  /** Most problems listed in one error before the rest are summarized (default 50). */
  maxIssues: number;
  /**
   * Most values visited in one pass, counting every branch of `anyOf`/`oneOf`/`not` and of type lists that
   * is tried (default 100,000): keeps validation linear when schemas nest alternatives.
   */
  maxVisits: number;
}

/** The defaults of {@link ValidationLimits}. */
export const DEFAULT_VALIDATION_LIMITS: Readonly<ValidationLimits> = Object.freeze({
  maxDepth: 32,
  maxNodes: 10_000,
  maxStringLength: 1_000_000,
  maxIssues: 50,
  maxVisits: 100_000,
});
