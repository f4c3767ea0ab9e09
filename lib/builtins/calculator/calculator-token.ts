/** The operators and brackets the calculator grammar knows. */
export type CalculatorOperator = '+' | '-' | '*' | '/' | '//' | '%' | '**' | '(' | ')';

/** One token of an arithmetic expression; `position` is the 1-based character where it starts. */
export type CalculatorToken =
  | { readonly kind: 'integer'; readonly value: bigint; readonly text: string; readonly position: number }
  | { readonly kind: 'float'; readonly value: number; readonly text: string; readonly position: number }
  | { readonly kind: 'operator'; readonly value: CalculatorOperator; readonly position: number }
  | { readonly kind: 'end'; readonly position: number };
