import { fastFormats } from 'ajv-formats/dist/formats';

type FormatDefinition =
  RegExp | ((value: string) => boolean) | { validate: RegExp | ((value: string) => boolean) };

/**
 * Returns a predicate for a JSON Schema `format` (ajv-formats' linear "fast" definitions), or null when the
 * format is unknown (unknown formats are annotations only, as in JSON Schema).
 */
export function getFormatCheck(format: string): ((value: string) => boolean) | null {
  const definition = (fastFormats as Record<string, FormatDefinition | undefined>)[format];
  if (definition === undefined) return null;
  const validate =
    definition instanceof RegExp || typeof definition === 'function' ? definition : definition.validate;
  if (validate instanceof RegExp) return (value) => validate.test(value);
  if (typeof validate === 'function') return validate;
  return null;
}
