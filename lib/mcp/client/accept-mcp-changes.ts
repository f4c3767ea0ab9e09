import { ToolInputError } from '../../errors/tool-input-error';
import type { MCPCatalogKind } from './mcp-catalog-definition';
import type { MCPCatalogChange } from './mcp-definition-change';
import { quoteKey, toMcpDefinitionLabel } from './mcp-definition-kind';
import type { McpCatalogPins, McpDefinitionPins } from './mcp-definition-pins';

/** Names one pending change when a plain name would be ambiguous (a tool and a prompt both named `review`). */
export interface MCPChangeSelector {
  /** `tool`, `resource`, `resourceTemplate` or `prompt`. */
  readonly kind: 'tool' | MCPCatalogKind;
  /** The tool's remote or local name, the resource's URI, the template's URI template or the prompt's name. */
  readonly name: string;
}

/** What {@link acceptMcpChanges} accepted. */
export interface AcceptedMcpChanges {
  /** The remote names of the tools whose new definitions are now pinned. */
  readonly tools: readonly string[];
  /** The resources, templates and prompts whose new definitions are now pinned. */
  readonly catalog: readonly MCPCatalogChange[];
}

/**
 * Trusts pending definition changes: every one when `names` is absent; otherwise each name (a tool's remote or
 * local name, a prompt's name, a resource's URI or a template's URI template, or a {@link MCPChangeSelector})
 * must name pending changes of exactly one kind. Nothing is accepted unless every name is.
 *
 * @throws ToolInputError for a name with no pending change (listing the pending ones) or with pending
 * changes of several kinds (saying how to pick one).
 */
export function acceptMcpChanges(
  names: readonly (string | MCPChangeSelector)[] | undefined,
  tools: McpDefinitionPins,
  catalog: McpCatalogPins | undefined,
  serverName: string,
): AcceptedMcpChanges {
  if (names === undefined) {
    const accepted = catalog ? catalog.changes : [];
    catalog?.accept(accepted);
    return { tools: tools.accept(), catalog: accepted };
  }
  const toolNames: string[] = [];
  const chosen: MCPCatalogChange[] = [];
  for (const entry of names) {
    const selector = typeof entry === 'string' ? undefined : entry;
    const name = typeof entry === 'string' ? entry : entry?.name;
    if (typeof name !== 'string')
      throw new ToolInputError('acceptChanges() takes names (strings) or { kind, name } selectors.');
    const toolPending = (!selector || selector.kind === 'tool') && tools.refusalOf(name) !== undefined;
    const catalogPending =
      selector?.kind === 'tool' ? [] : (catalog?.pendingNamed(name, selector?.kind as MCPCatalogKind) ?? []);
    const kinds = new Set<string>(catalogPending.map((change) => change.kind));
    if (toolPending) kinds.add('tool');
    if (kinds.size === 0) throw nothingPending(name, tools, catalog, serverName);
    if (kinds.size > 1) {
      throw new ToolInputError(
        `${quoteKey(name)} names pending changes of MCP server '${serverName}' of several kinds (${[...kinds].join(', ')}); ` +
          `accept one with a selector, e.g. adapter.acceptChanges([{ kind: '${[...kinds][0]}', name: ${JSON.stringify(name)} }]).`,
      );
    }
    if (toolPending) toolNames.push(name);
    chosen.push(...catalogPending);
  }
  const accepted = toolNames.length ? tools.accept(toolNames) : [];
  catalog?.accept(chosen);
  return { tools: accepted, catalog: chosen };
}

function nothingPending(
  name: string,
  tools: McpDefinitionPins,
  catalog: McpCatalogPins | undefined,
  serverName: string,
): Error {
  // Only tools pinned so far: the tools' own message, as before resources and prompts were pinned.
  if (!catalog?.changes.length) {
    try {
      tools.accept([name]);
    } catch (error) {
      return error as Error;
    }
  }
  const waiting = [
    ...tools.changes.map((change) => toMcpDefinitionLabel('tool', change.localName)),
    ...(catalog?.changes ?? []).map((change) => toMcpDefinitionLabel(change.kind, change.name)),
  ];
  return new ToolInputError(
    `MCP tool, resource or prompt ${quoteKey(name)} on server '${serverName}' has no definition change waiting for acceptance; ` +
      (waiting.length ? `pending: ${waiting.join(', ')}.` : 'nothing is pending.'),
    { toolName: name },
  );
}
