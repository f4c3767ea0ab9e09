import { loadAjvFormatDefinitions } from '../../runtime/lazy-require';
import { getUntrustedFormats } from './untrusted-formats';

type FormatDefinition =
  RegExp | ((value: string) => boolean) | { validate: RegExp | ((value: string) => boolean) };

/**
 * Returns a predicate for a JSON Schema `format` (ajv-formats' "fast" definitions; for untrusted schemas
 * their linear-time equivalents, see {@link getUntrustedFormats}; `url` always), or null when the format is unknown
 * (unknown formats are annotations only, as in JSON Schema).
 */
export function getFormatCheck(format: string, untrusted = false): ((value: string) => boolean) | null {
  // ajv-formats' `url` backtracks quadratically on hostile values (17 s on 40,000 characters), and values are
  // untrusted even when the schema is ours: every schema gets the linear definition.
  if (untrusted || format === 'url') {
    const formats = getUntrustedFormats();
    return Object.prototype.hasOwnProperty.call(formats, format) ? formats[format] : null;
  }
  const { fastFormats } = loadAjvFormatDefinitions();
  if (!Object.prototype.hasOwnProperty.call(fastFormats, format)) return null;
  const definition = (fastFormats as Record<string, FormatDefinition | undefined>)[format];
  if (definition === undefined) return null;
  const validate =
    definition instanceof RegExp || typeof definition === 'function' ? definition : definition.validate;
  if (validate instanceof RegExp) return (value) => validate.test(value);
  if (typeof validate === 'function') return validate;
  return null;
}
