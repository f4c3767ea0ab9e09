import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { ToolInputError } from '../../errors/tool-input-error';
import type { McpListing } from './build-mcp-listing';
import { diffMcpToolDefinition } from './diff-mcp-tool-definition';
import { toLocalToolName } from './map-mcp-tool-name';
import type { MCPToolAdapterOptions } from './mcp-adapter-options';
import type { MCPDefinitionChangeMode, MCPToolChange } from './mcp-tool-change';
import type { MCPToolDefinition } from './mcp-tool-definition';
import { hashMcpToolDefinition, pinMcpToolDefinition } from './pin-mcp-tool-definition';
import type { MCPToolPin } from './pin-mcp-tool-definition';
import { readMcpPins } from './read-mcp-pins';
import type { McpPinsContext } from './read-mcp-pins';

/**
 * The adapter's pins, keyed by local name (what the agent, its policy and approvals see): each local name is
 * bound to the remote definition behind it when first listed. A later listing that puts another definition
 * behind a pinned local name (a changed description, schema or hint, or another remote tool whose name maps
 * to the same local name) produces an {@link MCPToolChange} and, in `refuse` mode, sets the tool aside until
 * {@link accept} is called with its name.
 */
export class McpDefinitionPins {
  /** Local name → the pin that binds it. */
  private readonly pins = new Map<string, MCPToolPin>();
  /** Local name → the change behind it that waits for acceptance. */
  private readonly pending = new Map<string, MCPToolChange>();

  constructor(
    private readonly mode: MCPDefinitionChangeMode,
    private readonly context: McpPinsContext,
    private readonly report: (change: MCPToolChange) => void,
    initial: readonly MCPToolPin[] = [],
  ) {
    for (const pin of initial) this.pins.set(pin.localName, pin);
  }

  /** The remote names the pins bind: in a listing, each keeps its local name against any other claimant. */
  boundRemoteNames(): ReadonlySet<string> {
    return new Set([...this.pins.values()].map((pin) => pin.name));
  }

  /**
   * Checks a listing against the pins. New local names are pinned; a changed one is reported once per new
   * definition and, in `refuse` mode, left out of the returned listing with a {@link ToolDefinitionError}
   * in `problems`; in `warn` and `accept` modes the new definition is pinned and used. Each built tool's
   * pin goes into its metadata (`mcpPin`), so an agent saves it with the server's entry.
   */
  apply(listing: McpListing): McpListing {
    const entries = new Map(listing.entries);
    const toRemote = new Map(listing.toRemote);
    const problems = new Map(listing.problems);
    for (const [localName, definition] of this.claimsOf(listing)) {
      const sha256 = hashMcpToolDefinition(definition);
      const pin = this.pins.get(localName);
      if (!pin || pin.sha256 === sha256) {
        if (!pin) this.pins.set(localName, pinMcpToolDefinition(definition, localName));
        this.pending.delete(localName);
        continue;
      }
      const seen = this.pending.get(localName);
      const change = seen?.sha256 === sha256 ? seen : this.describe(pin, definition, sha256, localName);
      if (this.mode === 'refuse') {
        entries.delete(definition.name);
        toRemote.delete(localName);
        problems.set(definition.name, this.refusal(change));
        this.pending.set(localName, change);
      } else {
        this.pins.set(localName, pinMcpToolDefinition(definition, localName));
        this.pending.delete(localName);
      }
      if (change !== seen) this.report(change);
    }
    for (const [name, entry] of entries) {
      const pin = this.pins.get(entry.localName);
      if (pin) entries.set(name, { ...entry, metadata: { ...entry.metadata, mcpPin: pin } });
    }
    return { ...listing, entries, toRemote, problems };
  }

  /** The refusal of a tool (by local or remote name) whose change waits for acceptance, or undefined. */
  refusalOf(name: string): ToolDefinitionError | undefined {
    const change = this.findPending(name);
    return change ? this.refusal(change) : undefined;
  }

  /**
   * Why a call to a remote tool, through a tool built from an earlier listing, is refused (undefined when it
   * may go): a change behind its local name waits for acceptance, or the local name now stands for another
   * remote tool, so the tool the caller holds is out of date.
   */
  refusalOfCall(remoteName: string): ToolDefinitionError | undefined {
    const localName = toLocalToolName(remoteName, this.context.namePrefix);
    const change = this.pending.get(localName);
    if (change) return this.refusal(change);
    const pin = this.pins.get(localName);
    if (pin === undefined || pin.name === remoteName) return undefined;
    return new ToolDefinitionError(
      `MCP tool '${remoteName}' on server '${this.context.serverName}' is out of date: its local name ` +
        `'${localName}' now stands for the tool '${pin.name}' (a change accepted after this tool was built), so ` +
        'its calls are refused. Get the tools again (adapter.getTools()).',
      { toolName: localName },
    );
  }

  /** The changes waiting for {@link accept}. */
  get changes(): readonly MCPToolChange[] {
    return [...this.pending.values()];
  }

  /**
   * Trusts the listed definitions behind changed local names (all pending ones when `names` is absent; by
   * local or remote name): they become the pins. Returns the remote names accepted.
   *
   * @throws ToolInputError naming the pending tools when a name has no pending change.
   */
  accept(names?: readonly string[]): string[] {
    const chosen =
      names === undefined ? [...this.pending.values()] : names.map((name) => this.mustFind(name));
    for (const change of chosen) {
      this.pins.set(change.localName, pinMcpToolDefinition(change.after, change.localName));
      this.pending.delete(change.localName);
    }
    return chosen.map((change) => change.name);
  }

  /** Every pin, as plain JSON data (no secrets: names, hashes and the definitions the server sent). */
  export(): MCPToolPin[] {
    return [...this.pins.values()].map((pin) => structuredClone(pin));
  }

  /**
   * The definition behind each local name of a listing: the one holding the name; when none does (all set
   * aside), the one the pin binds, else the first listed. The others are set aside as collisions already,
   * and do not get to change what the name is bound to.
   */
  private claimsOf(listing: McpListing): Map<string, MCPToolDefinition> {
    const claims = new Map<string, MCPToolDefinition>();
    for (const definition of listing.definitions) {
      const localName = toLocalToolName(definition.name, this.context.namePrefix);
      const holder = listing.toRemote.get(localName);
      const isClaimant =
        holder !== undefined
          ? holder === definition.name
          : !claims.has(localName) || this.pins.get(localName)?.name === definition.name;
      if (isClaimant) claims.set(localName, definition);
    }
    return claims;
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
      serverName: this.context.serverName,
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
    const rebound =
      change.before.name === change.name
        ? ''
        : ` (its local name '${change.localName}' was bound to the tool '${change.before.name}')`;
    return new ToolDefinitionError(
      `MCP tool '${change.name}' on server '${change.serverName}' changed its definition since it was pinned${rebound} ` +
        `(${change.fields.join(', ')}), so it is refused. Review the change (adapter.pendingChanges or the ` +
        `toolChanged event), then call adapter.acceptChanges(['${change.name}']) to trust it. ` +
        `Changes: ${change.details.join('; ')}`,
      { toolName: change.localName },
    );
  }

  private findPending(name: string): MCPToolChange | undefined {
    return this.pending.get(name) ?? [...this.pending.values()].find((change) => change.name === name);
  }

  private mustFind(name: string): MCPToolChange {
    const change = this.findPending(name);
    if (change) return change;
    const waiting = [...this.pending.keys()];
    throw new ToolInputError(
      `MCP tool '${name}' on server '${this.context.serverName}' has no definition change waiting for acceptance; ` +
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
  context: McpPinsContext,
  report: (change: MCPToolChange) => void,
): McpDefinitionPins {
  const mode = options.onDefinitionChange ?? 'refuse';
  if (mode !== 'refuse' && mode !== 'warn' && mode !== 'accept') {
    throw new ToolInputError(
      `Unknown onDefinitionChange: ${JSON.stringify(mode)}. Use 'refuse' (the default), 'warn' or 'accept'.`,
    );
  }
  return new McpDefinitionPins(mode, context, report, readMcpPins(options.pins, context));
}
