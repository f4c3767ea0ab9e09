import { toCanonicalJson } from './pin-mcp-definition';

/** Most characters of a value quoted in a change's description. */
const QUOTE_CHARS = 400;

/**
 * The lines that say how an object field of a pinned definition changed, one per key whose value differs
 * (`field.key: before → after`), in key order; the same for tools and for resources and prompts.
 */
export function describeRecordChange(field: string, before: unknown, after: unknown): string[] {
  const old = asDefinitionRecord(before);
  const next = asDefinitionRecord(after);
  const lines: string[] = [];
  for (const key of [...new Set([...Object.keys(old), ...Object.keys(next)])].sort()) {
    if (toCanonicalJson(old[key]) !== toCanonicalJson(next[key]))
      lines.push(`${field}.${key}: ${quoteDefinitionValue(old[key])} → ${quoteDefinitionValue(next[key])}`);
  }
  return lines;
}

/** A value of a definition as a change's description quotes it: canonical JSON, cut past 400 characters. */
export function quoteDefinitionValue(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = toCanonicalJson(value);
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}… (${text.length} characters)` : text;
}

/** A definition's field as a record (anything else as an empty one). */
export function asDefinitionRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
