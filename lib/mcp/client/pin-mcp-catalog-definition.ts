import { createHash } from 'node:crypto';
import { ToolInputError } from '../../errors/tool-input-error';
import { deepFreeze } from '../../runtime/deep-freeze';
import { isPlainRecord } from '../../tools/validation/copy-json-value';
import type { MCPCatalogDefinition, MCPCatalogKind } from './mcp-catalog-definition';
import { toCanonicalJson } from './pin-mcp-tool-definition';

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

/** The fields each kind's pin covers, in the order diffs list them. */
export const CATALOG_PINNED_FIELDS: Readonly<Record<MCPCatalogKind, readonly string[]>> = Object.freeze({
  resource: Object.freeze(['uri', 'name', 'title', 'description', 'mimeType', 'annotations']),
  resourceTemplate: Object.freeze(['uriTemplate', 'name', 'title', 'description', 'mimeType', 'annotations']),
  prompt: Object.freeze(['name', 'title', 'description', 'arguments']),
});

/** The field holding each kind's key. */
export const CATALOG_KEY_FIELDS = Object.freeze({
  resource: 'uri',
  resourceTemplate: 'uriTemplate',
  prompt: 'name',
} as const);

/** Pins a definition: a deep, frozen copy of its pinned fields and their hash. */
export function pinMcpCatalogDefinition(
  kind: MCPCatalogKind,
  definition: MCPCatalogDefinition,
): MCPCatalogPin {
  const pinned = toPinnedDefinition(kind, definition);
  const name = (pinned as unknown as Record<string, string>)[CATALOG_KEY_FIELDS[kind]];
  return deepFreeze({ kind, name, localName: name, sha256: hashPinned(pinned), definition: pinned });
}

/** sha256 (hex) of the canonical JSON of the pinned fields of a definition. */
export function hashMcpCatalogDefinition(kind: MCPCatalogKind, definition: MCPCatalogDefinition): string {
  return hashPinned(toPinnedDefinition(kind, definition));
}

/** Whether a saved pin is a resource, template or prompt pin (tool pins have no `kind`, or `kind: 'tool'`). */
export function isCatalogPinData(value: unknown): boolean {
  return isPlainRecord(value) && value.kind !== undefined && value.kind !== 'tool';
}

/**
 * Checks saved resource, template and prompt pins (see {@link isCatalogPinData}): a known kind, a name, a
 * definition whose key field is that name and whose hash is the recorded one. An exact repeat is kept once.
 *
 * @throws ToolInputError naming the pin (by its position in `pins`) and how to fix it.
 */
export function readMcpCatalogPins(
  pins: ReadonlyArray<{ index: number; value: unknown }>,
  serverName: string,
): MCPCatalogPin[] {
  const byKey = new Map<string, MCPCatalogPin>();
  for (const { index, value } of pins) {
    const pin = value as Record<string, unknown>;
    const kind = pin.kind as MCPCatalogKind;
    if (!Object.hasOwn(CATALOG_KEY_FIELDS, kind as string)) {
      throw new ToolInputError(
        `pins[${index}] of MCP server '${serverName}' has the unknown kind ${JSON.stringify(pin.kind)}; ` +
          "use 'tool' (or no kind), 'resource', 'resourceTemplate' or 'prompt' as adapter.exportPins() wrote it.",
      );
    }
    const definition = pin.definition;
    if (
      typeof pin.name !== 'string' ||
      typeof pin.sha256 !== 'string' ||
      !isPlainRecord(definition) ||
      definition[CATALOG_KEY_FIELDS[kind]] !== pin.name
    ) {
      throw new ToolInputError(
        `pins[${index}] of MCP server '${serverName}' must be { kind, name, sha256, definition } as adapter.exportPins() returns it.`,
      );
    }
    const pinned = pinMcpCatalogDefinition(kind, definition as unknown as MCPCatalogDefinition);
    if (pinned.sha256 !== pin.sha256) {
      throw new ToolInputError(
        `pins[${index}] (${kind} ${JSON.stringify(pin.name)}) of MCP server '${serverName}' does not match its own ` +
          'definition: the sha256 differs. Export the pins again with adapter.exportPins() instead of editing them.',
      );
    }
    const id = `${kind}\u0000${pin.name}`;
    const earlier = byKey.get(id);
    if (earlier && earlier.sha256 !== pinned.sha256) {
      throw new ToolInputError(
        `pins of MCP server '${serverName}' hold two different definitions of the ${kind} ${JSON.stringify(pin.name)} ` +
          `(the second at pins[${index}]); remove the one you do not trust.`,
      );
    }
    byKey.set(id, pinned);
  }
  return [...byKey.values()];
}

function toPinnedDefinition(kind: MCPCatalogKind, definition: MCPCatalogDefinition): MCPCatalogDefinition {
  const source = definition as unknown as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const field of CATALOG_PINNED_FIELDS[kind]) {
    if (source[field] !== undefined) copy[field] = structuredClone(source[field]);
  }
  copy.description ??= '';
  if (kind === 'prompt') copy.arguments ??= [];
  else {
    const annotations = isPlainRecord(copy.annotations) ? { ...copy.annotations } : {};
    delete annotations.lastModified;
    copy.annotations = annotations;
  }
  return copy as unknown as MCPCatalogDefinition;
}

function hashPinned(pinned: MCPCatalogDefinition): string {
  return createHash('sha256').update(toCanonicalJson(pinned)).digest('hex');
}
