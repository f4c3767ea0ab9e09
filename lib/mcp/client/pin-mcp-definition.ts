import { createHash } from 'node:crypto';
import { deepFreeze } from '../../runtime/deep-freeze';
import { isPlainRecord } from '../../tools/validation/copy-json-value';
import type { MCPCatalogDefinition, MCPCatalogKind } from './mcp-catalog-definition';
import { keyOfMcpDefinition } from './mcp-definition-kind';
import type { McpDefinitionKind, McpDefinitionOf } from './mcp-definition-kind';
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

/**
 * A resource, resource template or prompt bound to the definition the application trusted, as
 * `adapter.exportPins()` lists it beside the tools' pins. Plain JSON, never secrets.
 */
export interface MCPCatalogPin {
  /** What is pinned. Tool pins have no `kind` (pins saved before resources and prompts were pinned load as tools). */
  readonly kind: MCPCatalogKind;
  /** The URI (resource), URI template (template) or name (prompt) the pin binds. */
  readonly name: string;
  /** The same as `name` (resources and prompts have no local names); kept so every pin has the same fields. */
  readonly localName: string;
  /** sha256 (hex) of the canonical JSON of the pinned fields. */
  readonly sha256: string;
  /** The pinned definition (without `size` and `annotations.lastModified`, which change with the content). */
  readonly definition: MCPCatalogDefinition;
}

/** The pin of each kind of definition. */
export type McpPinOf<Kind extends McpDefinitionKind> = Kind extends 'tool' ? MCPToolPin : MCPCatalogPin;

/** The fields of a tool's definition a pin covers, in the order diffs list them. */
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

/** What the pin of one kind covers. */
interface McpPinnedShape {
  /** The fields copied, in the order diffs list them. */
  readonly fields: readonly string[];
  /** What an absent (or null) field is pinned as, so that leaving it out or sending it empty is no change. */
  readonly defaults: Readonly<Record<string, unknown>>;
  /** Annotations not pinned because they change with the content (the copy's annotations are then a record). */
  readonly unpinnedAnnotations?: readonly string[];
}

const RESOURCE_FIELDS = ['name', 'title', 'description', 'mimeType', 'annotations'] as const;

/** What each kind's pin covers (a resource's `size`, which changes with its content, is never pinned). */
const PINNED_SHAPES: Readonly<Record<McpDefinitionKind, McpPinnedShape>> = Object.freeze({
  tool: { fields: PINNED_FIELDS, defaults: { description: '', inputSchema: {}, annotations: {} } },
  resource: {
    fields: ['uri', ...RESOURCE_FIELDS],
    defaults: { description: '' },
    unpinnedAnnotations: ['lastModified'],
  },
  resourceTemplate: {
    fields: ['uriTemplate', ...RESOURCE_FIELDS],
    defaults: { description: '' },
    unpinnedAnnotations: ['lastModified'],
  },
  prompt: {
    fields: ['name', 'title', 'description', 'arguments'],
    defaults: { description: '', arguments: [] },
  },
});

/** The fields each kind's pin covers, in the order diffs list them. */
export function pinnedFieldsOf(kind: McpDefinitionKind): readonly string[] {
  return PINNED_SHAPES[kind].fields;
}

/**
 * Pins a definition: a deep, frozen copy of its pinned fields and their hash. A tool's pin binds `localName`;
 * the others bind their key (URI, URI template or name), which is their `name` and `localName` both.
 */
export function pinMcpDefinition<Kind extends McpDefinitionKind>(
  kind: Kind,
  definition: McpDefinitionOf[Kind],
  localName?: string,
): McpPinOf<Kind> {
  const pinned = toPinnedDefinition(kind, definition);
  const name = keyOfMcpDefinition(kind, pinned);
  const names = kind === 'tool' ? { name, localName: localName ?? name } : { kind, name, localName: name };
  return deepFreeze({ ...names, sha256: hashPinned(pinned), definition: pinned }) as McpPinOf<Kind>;
}

/** sha256 (hex) of the canonical JSON of the pinned fields of a definition. */
export function hashMcpDefinition<Kind extends McpDefinitionKind>(
  kind: Kind,
  definition: McpDefinitionOf[Kind],
): string {
  return hashPinned(toPinnedDefinition(kind, definition));
}

/** Binds a local name to a tool's definition: {@link pinMcpDefinition} for a tool. */
export function pinMcpToolDefinition(definition: MCPToolDefinition, localName: string): MCPToolPin {
  return pinMcpDefinition('tool', definition, localName);
}

/** sha256 (hex) of the canonical JSON of the pinned fields of a tool's definition. */
export function hashMcpToolDefinition(definition: MCPToolDefinition): string {
  return hashMcpDefinition('tool', definition);
}

/** Pins a resource, template or prompt: {@link pinMcpDefinition} for those kinds. */
export function pinMcpCatalogDefinition(
  kind: MCPCatalogKind,
  definition: MCPCatalogDefinition,
): MCPCatalogPin {
  return pinMcpDefinition(kind, definition as McpDefinitionOf[MCPCatalogKind]);
}

/** sha256 (hex) of the canonical JSON of the pinned fields of a resource, template or prompt. */
export function hashMcpCatalogDefinition(kind: MCPCatalogKind, definition: MCPCatalogDefinition): string {
  return hashMcpDefinition(kind, definition as McpDefinitionOf[MCPCatalogKind]);
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

function toPinnedDefinition<Kind extends McpDefinitionKind>(
  kind: Kind,
  definition: McpDefinitionOf[Kind],
): McpDefinitionOf[Kind] {
  const { fields, defaults, unpinnedAnnotations } = PINNED_SHAPES[kind];
  const source = definition as unknown as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const field of fields) {
    if (source[field] !== undefined) copy[field] = structuredClone(source[field]);
  }
  for (const [field, value] of Object.entries(defaults)) copy[field] ??= structuredClone(value);
  if (unpinnedAnnotations) {
    const annotations = isPlainRecord(copy.annotations) ? { ...copy.annotations } : {};
    for (const name of unpinnedAnnotations) delete annotations[name];
    copy.annotations = annotations;
  }
  return copy as unknown as McpDefinitionOf[Kind];
}

function hashPinned(pinned: object): string {
  return createHash('sha256').update(toCanonicalJson(pinned)).digest('hex');
}
