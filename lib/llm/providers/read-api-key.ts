import { ToolInputError } from '../../errors/tool-input-error';

/**
 * Returns an API key: the explicit one, else the first environment variable that is set, read now (not
 * at construction), so keys can be rotated and tests can set them late.
 *
 * @throws ToolInputError naming the variables to set (never a key) when there is none and one is required.
 */
export function readApiKey(
  provider: string,
  explicit: string | undefined,
  variables: readonly string[],
  required = true,
): string | undefined {
  if (typeof explicit === 'string' && explicit !== '') return explicit;
  for (const variable of variables) {
    const value = process.env[variable];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  if (!required) return undefined;
  throw new ToolInputError(
    `No API key for ${provider}: set ${variables.join(' or ')} in the environment, or pass { apiKey } to the model's constructor.`,
  );
}
