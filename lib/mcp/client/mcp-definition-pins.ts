import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { ToolInputError } from '../../errors/tool-input-error';
import type { McpListing } from './build-mcp-listing';
import { toLocalToolName } from './map-mcp-tool-name';
import type { MCPToolAdapterOptions } from './mcp-adapter-options';
import type { MCPCatalogDefinition, MCPCatalogKind } from './mcp-catalog-definition';
import { kindOfMcpChange, toMcpChangeRefusal, toMcpDefinitionChange } from './mcp-definition-change';
import type {
  MCPCatalogChange,
  MCPDefinitionChangeMode,
  McpChangeOf,
  MCPToolChange,
} from './mcp-definition-change';
import type { McpDefinitionKind, McpDefinitionOf } from './mcp-definition-kind';
import type { MCPToolDefinition } from './mcp-tool-definition';
import { hashMcpDefinition, pinMcpDefinition } from './pin-mcp-definition';
import type { MCPCatalogPin, McpPinOf, MCPToolPin } from './pin-mcp-definition';
import { isCatalogPinData, readMcpCatalogPins, readMcpPins } from './read-mcp-pins';
import type { McpPinsContext } from './read-mcp-pins';

/**
 * The pins of one family of definitions and the changes that wait for acceptance, each under an id (a tool's
 * local name; a resource's, template's or prompt's kind and key). How a listed definition is held against its
 * pin is the same for every kind: {@link McpDefinitionPins} and {@link McpCatalogPins} say only what the ids
 * are and what a refusal leaves out.
 */
class McpPinBook<Kind extends McpDefinitionKind> {
  /** Id → the pin that binds it. */
  protected readonly pins = new Map<string, McpPinOf<Kind>>();
  /** Id → the change behind it that waits for acceptance. */
  protected readonly pending = new Map<string, McpChangeOf<Kind>>();

  constructor(
    protected readonly mode: MCPDefinitionChangeMode,
    protected readonly serverName: string,
    private readonly report: (change: McpChangeOf<Kind>) => void,
  ) {}

  /** The changes waiting for acceptance. */
  get changes(): readonly McpChangeOf<Kind>[] {
    return [...this.pending.values()];
  }

  /** Every pin, as plain JSON data (no secrets: names, hashes and the definitions the server sent). */
  export(): McpPinOf<Kind>[] {
    return [...this.pins.values()].map((pin) => structuredClone(pin));
  }

  /**
   * Holds a listed definition against the pin under `id`: a new id is pinned; a changed definition is
   * reported once per new definition and, in `refuse` mode, waits for acceptance (returned: the caller leaves
   * it out); in `warn` and `accept` modes it is pinned and used.
   */
  protected check(
    id: string,
    kind: Kind,
    definition: McpDefinitionOf[Kind],
    localName?: string,
  ): McpChangeOf<Kind> | undefined {
    const sha256 = hashMcpDefinition(kind, definition);
    const pin = this.pins.get(id);
    if (!pin || pin.sha256 === sha256) {
      if (!pin) this.pins.set(id, pinMcpDefinition(kind, definition, localName));
      this.pending.delete(id);
      return undefined;
    }
    const seen = this.pending.get(id);
    const change =
      seen?.sha256 === sha256
        ? seen
        : toMcpDefinitionChange({ kind, pin, definition, sha256, localName }, this.mode, this.serverName);
    if (this.mode === 'refuse') this.pending.set(id, change);
    else this.trust(id, change);
    if (change !== seen) this.report(change);
    return this.mode === 'refuse' ? change : undefined;
  }

  /** Pins a change's new definition under `id`. */
  protected trust(id: string, change: McpChangeOf<Kind>): void {
    const known = change as MCPToolChange | MCPCatalogChange;
    const localName = 'localName' in known ? known.localName : undefined;
    const after = known.after as McpDefinitionOf[Kind];
    this.pins.set(id, pinMcpDefinition(kindOfMcpChange(known) as Kind, after, localName));
    this.pending.delete(id);
  }
}

/**
 * The adapter's pins, keyed by local name (what the agent, its policy and approvals see): each local name is
 * bound to the remote definition behind it when first listed. A later listing that puts another definition
 * behind a pinned local name (a changed description, schema or hint, or another remote tool whose name maps
 * to the same local name) produces an {@link MCPToolChange} and, in `refuse` mode, sets the tool aside until
 * {@link accept} is called with its name.
 */
export class McpDefinitionPins extends McpPinBook<'tool'> {
  constructor(
    mode: MCPDefinitionChangeMode,
    private readonly context: McpPinsContext,
    report: (change: MCPToolChange) => void,
    initial: readonly MCPToolPin[] = [],
  ) {
    super(mode, context.serverName, report);
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
      const refused = this.check(localName, 'tool', definition, localName);
      if (!refused) continue;
      entries.delete(definition.name);
      toRemote.delete(localName);
      problems.set(definition.name, toMcpChangeRefusal(refused));
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
    return change ? toMcpChangeRefusal(change) : undefined;
  }

  /**
   * Why a call to a remote tool, through a tool built from an earlier listing, is refused (undefined when it
   * may go): a change behind its local name waits for acceptance, or the local name now stands for another
   * remote tool, so the tool the caller holds is out of date.
   */
  refusalOfCall(remoteName: string): ToolDefinitionError | undefined {
    const localName = toLocalToolName(remoteName, this.context.namePrefix);
    const change = this.pending.get(localName);
    if (change) return toMcpChangeRefusal(change);
    const pin = this.pins.get(localName);
    if (pin === undefined || pin.name === remoteName) return undefined;
    return new ToolDefinitionError(
      `MCP tool '${remoteName}' on server '${this.context.serverName}' is out of date: its local name ` +
        `'${localName}' now stands for the tool '${pin.name}' (a change accepted after this tool was built), so ` +
        'its calls are refused. Get the tools again (adapter.getTools()).',
      { toolName: localName },
    );
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
    for (const change of chosen) this.trust(change.localName, change);
    return chosen.map((change) => change.name);
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
 * The pins of a server's resources, resource templates and prompts, keyed by kind and URI, URI template or
 * name: each is bound to its definition when first listed, and a later listing with another definition under
 * the same key is a change, handled by the adapter's `onDefinitionChange` mode exactly as for tools.
 */
export class McpCatalogPins extends McpPinBook<MCPCatalogKind> {
  constructor(
    mode: MCPDefinitionChangeMode,
    serverName: string,
    report: (change: MCPCatalogChange) => void,
    initial: readonly MCPCatalogPin[] = [],
  ) {
    super(mode, serverName, report);
    for (const pin of initial) this.pins.set(idOf(pin.kind, pin.name), pin);
  }

  /**
   * Checks one listing of a kind against the pins: new keys are pinned; a changed definition is reported once
   * per new definition and, in `refuse` mode, returned with its {@link ToolDefinitionError} (the caller leaves it
   * out); in `warn` and `accept` modes it is pinned and used.
   */
  apply(
    kind: MCPCatalogKind,
    definitions: ReadonlyMap<string, MCPCatalogDefinition>,
  ): Map<string, ToolDefinitionError> {
    const refusals = new Map<string, ToolDefinitionError>();
    for (const [key, definition] of definitions) {
      const refused = this.check(idOf(kind, key), kind, definition);
      if (refused) refusals.set(key, toMcpChangeRefusal(refused));
    }
    return refusals;
  }

  /** The refusal of a changed entry waiting for acceptance, or undefined. */
  refusalOf(kind: MCPCatalogKind, key: string): ToolDefinitionError | undefined {
    const change = this.pending.get(idOf(kind, key));
    return change ? toMcpChangeRefusal(change) : undefined;
  }

  /** The pending changes under a name (a prompt's name, a resource's URI, a template's URI template). */
  pendingNamed(name: string, kind?: MCPCatalogKind): MCPCatalogChange[] {
    return this.changes.filter(
      (change) => change.name === name && (kind === undefined || change.kind === kind),
    );
  }

  /** Trusts the given pending changes: their new definitions become the pins. */
  accept(changes: readonly MCPCatalogChange[]): void {
    for (const change of changes) this.trust(idOf(change.kind, change.name), change);
  }
}

function idOf(kind: MCPCatalogKind, key: string): string {
  return `${kind}\u0000${key}`;
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

/**
 * The resource, template and prompt pins of an adapter from its options (`onDefinitionChange`, the entries
 * of `pins` that have such a `kind`), checked at first use.
 *
 * @throws ToolInputError for a bad saved pin.
 */
export function createMcpCatalogPins(
  options: Pick<MCPToolAdapterOptions, 'onDefinitionChange' | 'pins'>,
  serverName: string,
  report: (change: MCPCatalogChange) => void,
): McpCatalogPins {
  const saved = Array.isArray(options.pins)
    ? (options.pins as unknown[])
        .map((value, index) => ({ value, index }))
        .filter(({ value }) => isCatalogPinData(value))
    : [];
  return new McpCatalogPins(
    options.onDefinitionChange ?? 'refuse',
    serverName,
    report,
    readMcpCatalogPins(saved, serverName),
  );
}
