import { createHash } from 'node:crypto';
import { deepFreeze } from '../../runtime/deep-freeze';
import type { MCPToolDefinition } from './mcp-tool-definition';

/**
 * A local name bound to the remote definition the application trusted behind it: the hash decides (it covers
 * the remote name too, so another remote tool listed under the same local name is a change), the copy of the
 * definition is kept so a later change can be shown field by field (also after a restart). Plain JSON, never
 * secrets.
 */
export interface MCPToolPin {
  /** The tool's name on the server. */
  readonly name: string;
  /** The local name the pin binds: what the agent, its policy and approvals see. */
  readonly localName: string;
  /** sha256 (hex) of the canonical JSON of name, title, description, input and output schema, annotations. */
  readonly sha256: string;
  /** The pinned definition. */
  readonly definition: MCPToolDefinition;
}

/** The fields of a definition a pin covers, in the order diffs list them. */
export const PINNED_FIELDS = Object.freeze([
  'name',
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
] as const);

/** One field a pin covers. */
export type MCPPinnedField = (typeof PINNED_FIELDS)[number];

/** Binds a local name to a definition: the definition's hash and a deep copy of its pinned fields. */
export function pinMcpToolDefinition(definition: MCPToolDefinition, localName: string): MCPToolPin {
  const copy = pickPinnedFields(definition);
  return deepFreeze({
    name: definition.name,
    localName,
    sha256: hashMcpToolDefinition(copy),
    definition: copy,
  });
}

/** sha256 (hex) of the canonical JSON of the pinned fields of a definition. */
export function hashMcpToolDefinition(definition: MCPToolDefinition): string {
  return createHash('sha256')
    .update(toCanonicalJson(pickPinnedFields(definition)))
    .digest('hex');
}

/**
 * JSON with object keys sorted at every level (arrays keep their order; `undefined` members dropped), so
 * two definitions that mean the same serialize the same whatever order the server wrote them in.
 */
export function toCanonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => toCanonicalJson(item)).join(',')}]`;
  const members = Object.keys(value)
    .sort()
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${toCanonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${members.join(',')}}`;
}

function pickPinnedFields(definition: MCPToolDefinition): MCPToolDefinition {
  const copy: Record<string, unknown> = {};
  for (const field of PINNED_FIELDS) {
    const value = (definition as unknown as Record<string, unknown>)[field];
    if (value !== undefined) copy[field] = structuredClone(value);
  }
  copy.description ??= '';
  copy.inputSchema ??= {};
  copy.annotations ??= {};
  return copy as unknown as MCPToolDefinition;
}
