import { ToolInputError } from '../../errors/tool-input-error';
import { toLocalToolName } from './map-mcp-tool-name';
import type { MCPToolDefinition } from './mcp-tool-definition';
import { pinMcpToolDefinition } from './pin-mcp-tool-definition';
import type { MCPToolPin } from './pin-mcp-tool-definition';
import { isCatalogPinData } from './pin-mcp-catalog-definition';

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
    // Resource, template and prompt pins share the list; McpCatalogPins reads them.
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
    const where = `${describePin(index, pin.name)} of MCP server '${serverName}'`;
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
    if (pinned.sha256 !== pin.sha256) {
      throw new ToolInputError(
        `${where} does not match its own definition: the sha256 differs. Export the pins again with ` +
          'adapter.exportPins() instead of editing them.',
        { toolName: pin.name },
      );
    }
    const earlier = byLocalName.get(localName);
    if (earlier?.pin.sha256 === pinned.sha256) return;
    if (earlier) {
      // Which of the two the application trusted cannot be told from the file; it has to say.
      throw new ToolInputError(
        `${describePin(earlier.index, earlier.pin.name)} and ${describePin(index, pin.name)} of MCP server ` +
          `'${serverName}' both stand for the local name '${localName}', which is bound to one ` +
          'remote tool; remove the pin you do not trust.',
        { toolName: localName },
      );
    }
    byLocalName.set(localName, { pin: pinned, index });
  });
  return [...byLocalName.values()].map((entry) => entry.pin);
}

function describePin(index: number, name: string): string {
  return `pins[${index}] (tool '${name}')`;
}
