import type { MCPCatalogDefinition, MCPCatalogKind, MCPPromptArgument } from './mcp-catalog-definition';
import { describeRecordChange, quoteDefinitionValue } from './describe-definition-field';
import { CATALOG_PINNED_FIELDS } from './pin-mcp-catalog-definition';
import { toCanonicalJson } from './pin-mcp-tool-definition';

/** Longest quoted text in a diff line; the full values stay in `before` and `after`. */

/**
 * How two definitions of one resource, template or prompt differ, for people: the pinned fields that differ
 * and one line per change (a prompt's arguments added, removed, now required or no longer required, or
 * otherwise changed; each changed annotation; other fields before → after).
 */
export function diffMcpCatalogDefinition(
  kind: MCPCatalogKind,
  before: MCPCatalogDefinition,
  after: MCPCatalogDefinition,
): { readonly fields: readonly string[]; readonly details: readonly string[] } {
  const fields: string[] = [];
  const details: string[] = [];
  for (const field of CATALOG_PINNED_FIELDS[kind]) {
    const old = (before as unknown as Record<string, unknown>)[field];
    const next = (after as unknown as Record<string, unknown>)[field];
    if (toCanonicalJson(old) === toCanonicalJson(next)) continue;
    fields.push(field);
    if (field === 'arguments') details.push(...diffArguments(asArguments(old), asArguments(next)));
    else if (field === 'annotations') details.push(...describeRecordChange(field, old, next));
    else details.push(`${field}: ${quoteDefinitionValue(old)} → ${quoteDefinitionValue(next)}`);
  }
  return Object.freeze({ fields: Object.freeze(fields), details: Object.freeze(details) });
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
