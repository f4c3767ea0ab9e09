import type { ValidationState } from './validation-state';

/**
 * One compiled schema node: checks and coerces `value` at `path`, records problems on `state`, and returns
 * the (new) coerced value. Never mutates `value`.
 */
export type SchemaCheck = (value: unknown, path: string, depth: number, state: ValidationState) => unknown;
