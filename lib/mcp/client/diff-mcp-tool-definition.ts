import type { MCPToolDefinition } from './mcp-tool-definition';
import { asDefinitionRecord, describeRecordChange, quoteDefinitionValue } from './describe-definition-field';
import { PINNED_FIELDS, toCanonicalJson } from './pin-mcp-tool-definition';
import type { MCPPinnedField } from './pin-mcp-tool-definition';

/** Longest quoted text in a diff line; the full values stay in `before` and `after`. */

/** How two definitions of one tool differ, for people: which fields, and one readable line per change. */
export interface MCPToolDefinitionDiff {
  /** The pinned fields that differ, in a fixed order. */
  readonly fields: readonly MCPPinnedField[];
  /**
   * One line per change: the description before and after, added or removed arguments, arguments that
   * became required or optional, changed argument schemas, and each changed hint (`readOnlyHint: true → false`).
   */
  readonly details: readonly string[];
}

/** Compares a pinned definition with a new one. */
export function diffMcpToolDefinition(
  before: MCPToolDefinition,
  after: MCPToolDefinition,
): MCPToolDefinitionDiff {
  const fields: MCPPinnedField[] = [];
  const details: string[] = [];
  for (const field of PINNED_FIELDS) {
    const old = (before as unknown as Record<string, unknown>)[field];
    const next = (after as unknown as Record<string, unknown>)[field];
    if (toCanonicalJson(old) === toCanonicalJson(next)) continue;
    fields.push(field);
    if (field === 'inputSchema' || field === 'outputSchema') details.push(...diffSchema(field, old, next));
    else if (field === 'annotations') details.push(...describeRecordChange('annotations', old, next));
    else details.push(`${field}: ${quoteDefinitionValue(old)} → ${quoteDefinitionValue(next)}`);
  }
  return Object.freeze({ fields: Object.freeze(fields), details: Object.freeze(details) });
}

function diffSchema(field: string, before: unknown, after: unknown): string[] {
  if (before === undefined || after === undefined)
    return [
      `${field}: ${before === undefined ? 'added' : 'removed'} ${quoteDefinitionValue(before ?? after)}`,
    ];
  const old = asDefinitionRecord(before);
  const next = asDefinitionRecord(after);
  const lines: string[] = [];
  const oldProperties = asDefinitionRecord(old.properties);
  const newProperties = asDefinitionRecord(next.properties);
  const oldRequired = new Set(asStrings(old.required));
  const newRequired = new Set(asStrings(next.required));
  for (const name of Object.keys(newProperties)) {
    if (!Object.hasOwn(oldProperties, name)) {
      const kind = newRequired.has(name) ? 'new required argument' : 'new optional argument';
      lines.push(`${field}: ${kind} ${JSON.stringify(name)}: ${quoteDefinitionValue(newProperties[name])}`);
    } else if (toCanonicalJson(oldProperties[name]) !== toCanonicalJson(newProperties[name])) {
      lines.push(
        `${field}: argument ${JSON.stringify(name)} changed: ${quoteDefinitionValue(oldProperties[name])} → ${quoteDefinitionValue(newProperties[name])}`,
      );
    }
  }
  for (const name of Object.keys(oldProperties))
    if (!Object.hasOwn(newProperties, name)) lines.push(`${field}: argument ${JSON.stringify(name)} removed`);
  for (const name of newRequired)
    if (!oldRequired.has(name) && Object.hasOwn(oldProperties, name))
      lines.push(`${field}: argument ${JSON.stringify(name)} is now required`);
  for (const name of oldRequired)
    if (!newRequired.has(name) && Object.hasOwn(newProperties, name))
      lines.push(`${field}: argument ${JSON.stringify(name)} is no longer required`);
  const rest = (record: Record<string, unknown>) => {
    const { properties: _properties, required: _required, ...others } = record;
    return others;
  };
  if (toCanonicalJson(rest(old)) !== toCanonicalJson(rest(next)))
    lines.push(...describeRecordChange(field, rest(old), rest(next)));
  // Only the order of `required` changed, or something the lines above do not describe.
  if (lines.length === 0)
    lines.push(`${field}: ${quoteDefinitionValue(before)} → ${quoteDefinitionValue(after)}`);
  return lines;
}

function asStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
