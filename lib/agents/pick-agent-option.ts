import { ToolInputError } from '../errors/tool-input-error';

/**
 * Returns an Agent option that must be one of `choices`, or `fallback` when absent.
 *
 * @throws ToolInputError naming the option and its choices.
 */
export function pickOption<T extends string>(
  value: T | undefined,
  field: string,
  choices: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (!choices.includes(value))
    throw new ToolInputError(
      `Agent ${field} must be one of ${choices.map((choice) => `'${choice}'`).join(', ')}; got ${JSON.stringify(value)}.`,
    );
  return value;
}
