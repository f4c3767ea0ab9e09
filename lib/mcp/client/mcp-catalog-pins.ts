import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { diffMcpCatalogDefinition } from './diff-mcp-catalog-definition';
import type { MCPCatalogChange } from './mcp-catalog-change';
import type { MCPCatalogDefinition, MCPCatalogKind } from './mcp-catalog-definition';
import type { MCPDefinitionChangeMode } from './mcp-tool-change';
import type { MCPToolAdapterOptions } from './mcp-adapter-options';
import {
  hashMcpCatalogDefinition,
  isCatalogPinData,
  pinMcpCatalogDefinition,
  readMcpCatalogPins,
} from './pin-mcp-catalog-definition';
import type { MCPCatalogPin } from './pin-mcp-catalog-definition';
import { CATALOG_NOUNS, quoteKey } from './read-mcp-catalog-entry';

/**
 * The pins of a server's resources, resource templates and prompts, keyed by kind and URI, URI template or
 * name: each is bound to its definition when first listed, and a later listing with another definition under
 * the same key is a change, handled by the adapter's `onDefinitionChange` mode exactly as for tools.
 */
export class McpCatalogPins {
  private readonly pins = new Map<string, MCPCatalogPin>();
  private readonly pending = new Map<string, MCPCatalogChange>();

  constructor(
    private readonly mode: MCPDefinitionChangeMode,
    private readonly serverName: string,
    private readonly report: (change: MCPCatalogChange) => void,
    initial: readonly MCPCatalogPin[] = [],
  ) {
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
    const refused = new Map<string, ToolDefinitionError>();
    for (const [key, definition] of definitions) {
      const id = idOf(kind, key);
      const sha256 = hashMcpCatalogDefinition(kind, definition);
      const pin = this.pins.get(id);
      if (!pin || pin.sha256 === sha256) {
        if (!pin) this.pins.set(id, pinMcpCatalogDefinition(kind, definition));
        this.pending.delete(id);
        continue;
      }
      const seen = this.pending.get(id);
      const change = seen?.sha256 === sha256 ? seen : this.describe(kind, pin, definition, sha256);
      if (this.mode === 'refuse') {
        refused.set(key, this.refusal(change));
        this.pending.set(id, change);
      } else {
        this.pins.set(id, pinMcpCatalogDefinition(kind, definition));
        this.pending.delete(id);
      }
      if (change !== seen) this.report(change);
    }
    return refused;
  }

  /** The refusal of a changed entry waiting for acceptance, or undefined. */
  refusalOf(kind: MCPCatalogKind, key: string): ToolDefinitionError | undefined {
    const change = this.pending.get(idOf(kind, key));
    return change ? this.refusal(change) : undefined;
  }

  /** The changes waiting for {@link accept}. */
  get changes(): readonly MCPCatalogChange[] {
    return [...this.pending.values()];
  }

  /** The pending changes under a name (a prompt's name, a resource's URI, a template's URI template). */
  pendingNamed(name: string, kind?: MCPCatalogKind): MCPCatalogChange[] {
    return this.changes.filter(
      (change) => change.name === name && (kind === undefined || change.kind === kind),
    );
  }

  /** Trusts the given pending changes: their new definitions become the pins. */
  accept(changes: readonly MCPCatalogChange[]): void {
    for (const change of changes) {
      const id = idOf(change.kind, change.name);
      this.pins.set(id, pinMcpCatalogDefinition(change.kind, change.after));
      this.pending.delete(id);
    }
  }

  /** Every pin, as plain JSON data. */
  export(): MCPCatalogPin[] {
    return [...this.pins.values()].map((pin) => structuredClone(pin));
  }

  private describe(
    kind: MCPCatalogKind,
    pin: MCPCatalogPin,
    definition: MCPCatalogDefinition,
    sha256: string,
  ): MCPCatalogChange {
    // Compared as pinned, so a new lastModified beside a real change is not listed as one.
    const diff = diffMcpCatalogDefinition(
      kind,
      pin.definition,
      pinMcpCatalogDefinition(kind, definition).definition,
    );
    const action = this.mode === 'refuse' ? 'refused' : this.mode === 'warn' ? 'warned' : 'accepted';
    return Object.freeze({
      kind,
      name: pin.name,
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

  private refusal(change: MCPCatalogChange): ToolDefinitionError {
    const event = change.kind === 'prompt' ? 'promptChanged' : 'resourceChanged';
    return new ToolDefinitionError(
      `MCP ${CATALOG_NOUNS[change.kind]} ${quoteKey(change.name)} on server '${change.serverName}' changed its ` +
        `definition since it was pinned (${change.fields.join(', ')}), so it is refused. Review the change ` +
        `(adapter.pendingCatalogChanges or the ${event} event), then call ` +
        `adapter.acceptChanges([${JSON.stringify(change.name)}]) to trust it. Changes: ${change.details.join('; ')}`,
    );
  }
}

function idOf(kind: MCPCatalogKind, key: string): string {
  return `${kind}\u0000${key}`;
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
