import { ToolDefinitionError } from '../../../errors/tool-definition-error';
import { ToolInputError } from '../../../errors/tool-input-error';
import type { McpListing } from './build-mcp-listing';
import { diffMcpToolDefinition } from './diff-mcp-tool-definition';
import type { MCPPinnedField } from './pin-mcp-tool-definition';
import type { MCPToolAdapterOptions, MCPToolDefinition } from './mcp-adapter-options';
import { hashMcpToolDefinition, pinMcpToolDefinition } from './pin-mcp-tool-definition';
import type { MCPToolPin } from './pin-mcp-tool-definition';

/** What the adapter does when a pinned tool's definition changes. */
export type MCPDefinitionChangeMode = 'refuse' | 'warn' | 'accept';

/** A pinned tool whose definition changed, as the `toolChanged` event and `pendingChanges` describe it. */
export interface MCPToolChange {
  /** The tool's name on the server. */
  readonly name: string;
  /** The tool's local name. */
  readonly localName: string;
  /** The adapter's server name. */
  readonly serverName: string;
  /** `refused` (not built, calls refused until `acceptChanges`), `warned` or `accepted` (new definition used). */
  readonly action: 'refused' | 'warned' | 'accepted';
  /** The fields that changed. */
  readonly fields: readonly MCPPinnedField[];
  /** One readable line per change (description before/after, arguments added or now required, hints). */
  readonly details: readonly string[];
  /** The pinned definition. */
  readonly before: MCPToolDefinition;
  /** The definition the server lists now. */
  readonly after: MCPToolDefinition;
  /** The pinned hash and the new one. */
  readonly previousSha256: string;
  readonly sha256: string;
}

/**
 * The adapter's pins: every tool's definition is pinned when first listed; a later listing that changes a
 * pinned definition produces an {@link MCPToolChange} and, in `refuse` mode, sets the tool aside until
 * {@link accept} is called with its name.
 */
export class McpDefinitionPins {
  private readonly pins = new Map<string, MCPToolPin>();
  private readonly pending = new Map<string, MCPToolChange>();

  constructor(
    private readonly mode: MCPDefinitionChangeMode,
    private readonly serverName: string,
    private readonly report: (change: MCPToolChange) => void,
    initial: readonly MCPToolPin[] = [],
  ) {
    for (const pin of initial) this.pins.set(pin.name, pin);
  }

  /**
   * Checks a listing against the pins. New tools are pinned; a changed one is reported once per new
   * definition and, in `refuse` mode, left out of the returned listing with a {@link ToolDefinitionError}
   * in `problems`; in `warn` and `accept` modes the new definition is pinned and used. Each built tool's
   * pin goes into its metadata (`mcpPin`), so an agent saves it with the server's entry.
   */
  apply(listing: McpListing): McpListing {
    const entries = new Map(listing.entries);
    const toRemote = new Map(listing.toRemote);
    const problems = new Map(listing.problems);
    for (const definition of listing.definitions) {
      const sha256 = hashMcpToolDefinition(definition);
      const pin = this.pins.get(definition.name);
      if (!pin || pin.sha256 === sha256) {
        if (!pin) this.pins.set(definition.name, pinMcpToolDefinition(definition));
        this.pending.delete(definition.name);
      } else {
        const localName = listing.entries.get(definition.name)?.localName ?? definition.name;
        const seen = this.pending.get(definition.name);
        const change = seen?.sha256 === sha256 ? seen : this.describe(pin, definition, sha256, localName);
        if (this.mode === 'refuse') {
          entries.delete(definition.name);
          toRemote.delete(localName);
          problems.set(definition.name, this.refusal(change));
          this.pending.set(definition.name, change);
        } else {
          this.pins.set(definition.name, pinMcpToolDefinition(definition));
          this.pending.delete(definition.name);
        }
        if (change !== seen) this.report(change);
      }
    }
    for (const [name, entry] of entries) {
      const pin = this.pins.get(name);
      if (pin) entries.set(name, { ...entry, metadata: { ...entry.metadata, mcpPin: pin } });
    }
    return { ...listing, entries, toRemote, problems };
  }

  /** The refusal of a tool (by remote or local name) whose change waits for acceptance, or undefined. */
  refusalOf(name: string): ToolDefinitionError | undefined {
    const change = this.findPending(name);
    return change ? this.refusal(change) : undefined;
  }

  /** The changes waiting for {@link accept}. */
  get changes(): readonly MCPToolChange[] {
    return [...this.pending.values()];
  }

  /**
   * Trusts the listed definitions of changed tools (all pending ones when `names` is absent): their new
   * definitions become the pins. Returns the remote names accepted.
   *
   * @throws ToolInputError naming the pending tools when a name has no pending change.
   */
  accept(names?: readonly string[]): string[] {
    const chosen =
      names === undefined ? [...this.pending.values()] : names.map((name) => this.mustFind(name));
    for (const change of chosen) {
      this.pins.set(change.name, pinMcpToolDefinition(change.after));
      this.pending.delete(change.name);
    }
    return chosen.map((change) => change.name);
  }

  /** Every pin, as plain JSON data (no secrets: names, hashes and the definitions the server sent). */
  export(): MCPToolPin[] {
    return [...this.pins.values()].map((pin) => structuredClone(pin));
  }

  /** The pin of one tool (by remote name), for the tool's metadata. */
  pinOf(name: string): MCPToolPin | undefined {
    return this.pins.get(name);
  }

  private describe(
    pin: MCPToolPin,
    definition: MCPToolDefinition,
    sha256: string,
    localName: string,
  ): MCPToolChange {
    const diff = diffMcpToolDefinition(pin.definition, definition);
    const action = this.mode === 'refuse' ? 'refused' : this.mode === 'warn' ? 'warned' : 'accepted';
    return Object.freeze({
      name: definition.name,
      localName,
      serverName: this.serverName,
      action,
      fields: diff.fields,
      details: diff.details,
      before: pin.definition,
      after: definition,
      previousSha256: pin.sha256,
      sha256,
    });
  }

  private refusal(change: MCPToolChange): ToolDefinitionError {
    return new ToolDefinitionError(
      `MCP tool '${change.name}' on server '${change.serverName}' changed its definition since it was pinned ` +
        `(${change.fields.join(', ')}), so it is refused. Review the change (adapter.pendingChanges or the ` +
        `toolChanged event), then call adapter.acceptChanges(['${change.name}']) to trust it. ` +
        `Changes: ${change.details.join('; ')}`,
      { toolName: change.localName },
    );
  }

  private findPending(name: string): MCPToolChange | undefined {
    return this.pending.get(name) ?? [...this.pending.values()].find((change) => change.localName === name);
  }

  private mustFind(name: string): MCPToolChange {
    const change = this.findPending(name);
    if (change) return change;
    const waiting = [...this.pending.keys()];
    throw new ToolInputError(
      `MCP tool '${name}' on server '${this.serverName}' has no definition change waiting for acceptance; ` +
        (waiting.length ? `pending: ${waiting.join(', ')}.` : 'nothing is pending.'),
      { toolName: name },
    );
  }
}

/**
 * The pins of an adapter from its options (`onDefinitionChange`, `pins`), checked at first use.
 *
 * @throws ToolInputError for an unknown mode or a bad saved pin.
 */
export function createMcpDefinitionPins(
  options: Pick<MCPToolAdapterOptions, 'onDefinitionChange' | 'pins'>,
  serverName: string,
  report: (change: MCPToolChange) => void,
): McpDefinitionPins {
  const mode = options.onDefinitionChange ?? 'refuse';
  if (mode !== 'refuse' && mode !== 'warn' && mode !== 'accept') {
    throw new ToolInputError(
      `Unknown onDefinitionChange: ${JSON.stringify(mode)}. Use 'refuse' (the default), 'warn' or 'accept'.`,
    );
  }
  return new McpDefinitionPins(mode, serverName, report, readMcpPins(options.pins, serverName));
}

/**
 * Checks pins saved earlier (`adapter.exportPins()`, or an agent's `mcpServers[].pins`): each needs a
 * name, and a definition whose hash is the recorded one, so a hand-edited file cannot show one
 * definition while trusting another.
 *
 * @throws ToolInputError saying which pin is wrong and how to fix it.
 */
export function readMcpPins(value: unknown, serverName: string): MCPToolPin[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw new ToolInputError(
      `'pins' of MCP server '${serverName}' must be the list adapter.exportPins() returned.`,
    );
  return value.map((item: unknown, index) => {
    const pin = item as Partial<MCPToolPin> | null;
    if (
      typeof pin !== 'object' ||
      pin === null ||
      typeof pin.name !== 'string' ||
      typeof pin.sha256 !== 'string' ||
      typeof pin.definition !== 'object' ||
      pin.definition === null ||
      pin.definition.name !== pin.name
    ) {
      throw new ToolInputError(
        `pins[${index}] of MCP server '${serverName}' must be { name, sha256, definition } as adapter.exportPins() returns it.`,
      );
    }
    const pinned = pinMcpToolDefinition(pin.definition);
    if (pinned.sha256 !== pin.sha256) {
      throw new ToolInputError(
        `pins[${index}] (tool '${pin.name}') of MCP server '${serverName}' does not match its own definition: ` +
          'the sha256 differs. Export the pins again with adapter.exportPins() instead of editing them.',
        { toolName: pin.name },
      );
    }
    return pinned;
  });
}
