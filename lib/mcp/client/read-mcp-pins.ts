import { ToolInputError } from '../../errors/tool-input-error';
import type { ProtolinkErrorOptions } from '../../errors/protolink-error';
import { isPlainRecord } from '../../tools/validation/copy-json-value';
import { toLocalToolName } from './map-mcp-tool-name';
import type { MCPCatalogDefinition, MCPCatalogKind } from './mcp-catalog-definition';
import { MCP_DEFINITION_KINDS } from './mcp-definition-kind';
import type { McpDefinitionKind } from './mcp-definition-kind';
import type { MCPToolDefinition } from './mcp-tool-definition';
import { pinMcpCatalogDefinition, pinMcpToolDefinition } from './pin-mcp-definition';
import type { MCPCatalogPin, MCPToolPin } from './pin-mcp-definition';

// The tools' pins and the others' are read apart: a tool's pin binds a local name (checked against the
// adapter's namePrefix, and one pin per local name), the others bind their kind and key. What they share,
// the label of a saved pin and the check of its hash, is written once below.

/** The adapter settings saved pins are read against. */
export interface McpPinsContext {
  /** The adapter's server name, for messages. */
  readonly serverName: string;
  /** The adapter's `namePrefix`: with the remote name, it decides the local name a pin binds. */
  readonly namePrefix: string;
}

/**
 * Checks pins saved earlier (`adapter.exportPins()`, or an agent's `mcpServers[].pins`) and binds each to the
 * local name the adapter gives its remote name: each needs a name, and a definition whose hash is the
 * recorded one, so a hand-edited file cannot show one definition while trusting another; a `localName`, when
 * present, must be that local name; and no two pins may bind one local name. Pins saved before pins were
 * bound to local names (`{ name, sha256, definition }`) load the same way. An exact repeat is kept once.
 * Pins with a `kind` other than `tool` (resources, templates, prompts) are skipped here.
 *
 * @throws ToolInputError saying which pin is wrong and how to fix it.
 */
export function readMcpPins(value: unknown, context: McpPinsContext): MCPToolPin[] {
  const { serverName, namePrefix } = context;
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw new ToolInputError(
      `'pins' of MCP server '${serverName}' must be the list adapter.exportPins() returned.`,
    );
  const byLocalName = new Map<string, { pin: MCPToolPin; index: number }>();
  value.forEach((item: unknown, index) => {
    // Resource, template and prompt pins share the list; readMcpCatalogPins reads them.
    if (isCatalogPinData(item)) return;
    const pin = item as (Partial<Omit<MCPToolPin, 'definition'>> & { definition?: unknown }) | null;
    if (
      typeof pin !== 'object' ||
      pin === null ||
      typeof pin.name !== 'string' ||
      typeof pin.sha256 !== 'string' ||
      typeof pin.definition !== 'object' ||
      pin.definition === null ||
      (pin.definition as { name?: unknown }).name !== pin.name ||
      (pin.localName !== undefined && typeof pin.localName !== 'string')
    ) {
      throw new ToolInputError(
        `pins[${index}] of MCP server '${serverName}' must be { name, localName, sha256, definition } as adapter.exportPins() returns it.`,
      );
    }
    const where = `${describeSavedPin(index, 'tool', pin.name)} of MCP server '${serverName}'`;
    const localName = toLocalToolName(pin.name, namePrefix);
    if (pin.localName !== undefined && pin.localName !== localName) {
      throw new ToolInputError(
        `${where} was saved for the local name '${pin.localName}', but the adapter names that tool '${localName}' ` +
          `(namePrefix ${JSON.stringify(namePrefix)}). A pin binds one local name: export the pins again with ` +
          "adapter.exportPins() instead of editing them; if the adapter's namePrefix changed on purpose, delete " +
          'the localName fields and the pins bind the new local names.',
        { toolName: pin.name },
      );
    }
    const pinned = pinMcpToolDefinition(pin.definition as MCPToolDefinition, localName);
    assertOwnHash(pinned, pin.sha256, where, { toolName: pin.name });
    const earlier = byLocalName.get(localName);
    if (earlier?.pin.sha256 === pinned.sha256) return;
    if (earlier) {
      // Which of the two the application trusted cannot be told from the file; it has to say.
      throw new ToolInputError(
        `${describeSavedPin(earlier.index, 'tool', earlier.pin.name)} and ${describeSavedPin(index, 'tool', pin.name)} of MCP server ` +
          `'${serverName}' both stand for the local name '${localName}', which is bound to one ` +
          'remote tool; remove the pin you do not trust.',
        { toolName: localName },
      );
    }
    byLocalName.set(localName, { pin: pinned, index });
  });
  return [...byLocalName.values()].map((entry) => entry.pin);
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
    if (pin.kind === 'tool' || !Object.hasOwn(MCP_DEFINITION_KINDS, kind as string)) {
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
      definition[MCP_DEFINITION_KINDS[kind].keyField] !== pin.name
    ) {
      throw new ToolInputError(
        `pins[${index}] of MCP server '${serverName}' must be { kind, name, sha256, definition } as adapter.exportPins() returns it.`,
      );
    }
    const pinned = pinMcpCatalogDefinition(kind, definition as unknown as MCPCatalogDefinition);
    assertOwnHash(
      pinned,
      pin.sha256,
      `${describeSavedPin(index, kind, pin.name)} of MCP server '${serverName}'`,
    );
    const id = `${kind}\u0000${pin.name}`;
    const earlier = byKey.get(id);
    if (earlier && earlier.sha256 !== pinned.sha256) {
      throw new ToolInputError(
        `pins of MCP server '${serverName}' hold two different definitions of the ${toSavedPinLabel(kind, pin.name)} ` +
          `(the second at pins[${index}]); remove the one you do not trust.`,
      );
    }
    byKey.set(id, pinned);
  }
  return [...byKey.values()];
}

/** A saved pin in messages: its position in `pins`, its kind and its name (`pins[2] (tool 'add')`). */
function describeSavedPin(index: number, kind: McpDefinitionKind, name: string): string {
  return `pins[${index}] (${toSavedPinLabel(kind, name)})`;
}

function toSavedPinLabel(kind: McpDefinitionKind, name: string): string {
  return `${kind} ${MCP_DEFINITION_KINDS[kind].toArgument(name)}`;
}

/**
 * A saved pin's hash must be the hash of its own definition, so a hand-edited file cannot show one
 * definition while trusting another.
 *
 * @throws ToolInputError saying to export the pins again.
 */
function assertOwnHash(
  pinned: { readonly sha256: string },
  saved: string,
  where: string,
  options: ProtolinkErrorOptions = {},
): void {
  if (pinned.sha256 === saved) return;
  throw new ToolInputError(
    `${where} does not match its own definition: the sha256 differs. Export the pins again with ` +
      'adapter.exportPins() instead of editing them.',
    options,
  );
}
