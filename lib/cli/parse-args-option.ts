import { ToolInputError } from '../errors/tool-input-error';

/**
 * Parses `--args '<json>'`: one JSON object of tool arguments (empty when absent).
 *
 * @throws ToolInputError for invalid JSON or JSON that is not an object, with the fix.
 */
export function parseArgsOption(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ToolInputError(
      `--args is not valid JSON (${(error as Error).message}). Quote it for your shell: --args '{"a": 1}'`,
      { cause: error },
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ToolInputError(`--args must be one JSON object of arguments, e.g. --args '{"a": 1, "b": 2}'.`);
  }
  return parsed as Record<string, unknown>;
}
