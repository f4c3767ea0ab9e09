import type { MCPCatalogDefinition, MCPCatalogKind, MCPPromptArgument } from './mcp-catalog-definition';
import type { McpDefinitionKind, McpDefinitionOf } from './mcp-definition-kind';
import type { MCPToolDefinition } from './mcp-tool-definition';
import { asDefinitionRecord, describeRecordChange, quoteDefinitionValue } from './describe-definition-field';
import { pinnedFieldsOf, toCanonicalJson } from './pin-mcp-definition';
import type { MCPPinnedField } from './pin-mcp-definition';

/** How two definitions of one tool, resource, template or prompt differ, for people. */
export interface McpDefinitionDiff<Field extends string = string> {
  /** The pinned fields that differ, in a fixed order. */
  readonly fields: readonly Field[];
  /**
   * One line per change: each changed annotation or hint (`readOnlyHint: true → false`); a tool's arguments
   * (schema properties) or a prompt's arguments added, removed, now required or no longer required, or
   * otherwise changed; other fields before → after.
   */
  readonly details: readonly string[];
}

/** How two definitions of one tool differ. */
export type MCPToolDefinitionDiff = McpDefinitionDiff<MCPPinnedField>;

/** The fields described more closely than `before → after`; field names do not repeat across kinds. */
const FIELD_DIFFS: Readonly<Record<string, (field: string, before: unknown, after: unknown) => string[]>> = {
  inputSchema: diffSchema,
  outputSchema: diffSchema,
  arguments: (_field, before, after) => diffArguments(asArguments(before), asArguments(after)),
  annotations: describeRecordChange,
};

/** Compares a pinned definition with a new one, field by field in the order the kind's pin lists them. */
export function diffMcpDefinition<Kind extends McpDefinitionKind>(
  kind: Kind,
  before: McpDefinitionOf[Kind],
  after: McpDefinitionOf[Kind],
): McpDefinitionDiff {
  const fields: string[] = [];
  const details: string[] = [];
  for (const field of pinnedFieldsOf(kind)) {
    const old = (before as unknown as Record<string, unknown>)[field];
    const next = (after as unknown as Record<string, unknown>)[field];
    if (toCanonicalJson(old) === toCanonicalJson(next)) continue;
    fields.push(field);
    const diff = FIELD_DIFFS[field];
    if (diff) details.push(...diff(field, old, next));
    else details.push(`${field}: ${quoteDefinitionValue(old)} → ${quoteDefinitionValue(next)}`);
  }
  return Object.freeze({ fields: Object.freeze(fields), details: Object.freeze(details) });
}

/** Compares a pinned tool definition with a new one: {@link diffMcpDefinition} for a tool. */
export function diffMcpToolDefinition(
  before: MCPToolDefinition,
  after: MCPToolDefinition,
): MCPToolDefinitionDiff {
  return diffMcpDefinition('tool', before, after) as MCPToolDefinitionDiff;
}

/** Compares a pinned resource, template or prompt with a new one: {@link diffMcpDefinition} for those kinds. */
export function diffMcpCatalogDefinition(
  kind: MCPCatalogKind,
  before: MCPCatalogDefinition,
  after: MCPCatalogDefinition,
): McpDefinitionDiff {
  return diffMcpDefinition(kind, before, after);
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

function diffArguments(before: MCPPromptArgument[], after: MCPPromptArgument[]): string[] {
  const lines: string[] = [];
  const old = new Map(before.map((argument) => [argument.name, argument]));
  const next = new Map(after.map((argument) => [argument.name, argument]));
  for (const [name, argument] of next) {
    const was = old.get(name);
    if (!was) {
      lines.push(
        `arguments: new ${argument.required ? 'required' : 'optional'} argument ${JSON.stringify(name)}: ${quoteDefinitionValue(argument)}`,
      );
    } else if (was.required !== argument.required) {
      lines.push(
        `arguments: argument ${JSON.stringify(name)} is ${argument.required ? 'now required' : 'no longer required'}`,
      );
    } else if (toCanonicalJson(was) !== toCanonicalJson(argument)) {
      lines.push(
        `arguments: argument ${JSON.stringify(name)} changed: ${quoteDefinitionValue(was)} → ${quoteDefinitionValue(argument)}`,
      );
    }
  }
  for (const name of old.keys())
    if (!next.has(name)) lines.push(`arguments: argument ${JSON.stringify(name)} removed`);
  // Only the order changed.
  if (lines.length === 0)
    lines.push(`arguments: ${quoteDefinitionValue(before)} → ${quoteDefinitionValue(after)}`);
  return lines;
}

function asArguments(value: unknown): MCPPromptArgument[] {
  return Array.isArray(value) ? (value as MCPPromptArgument[]) : [];
}

function asStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
