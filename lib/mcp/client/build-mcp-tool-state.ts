import type { NativeTool } from '../../tools/native-tool';
import { scanTools } from '../../tools/registry/scan-tools';
import { buildMcpListing } from './build-mcp-listing';
import type { McpListing } from './build-mcp-listing';
import { buildMcpToolClass } from './build-mcp-tool-class';
import type { McpInvoke } from './build-mcp-tool-class';
import { toInputTypes } from './format-mcp-tool-listing';
import type { MCPToolAdapterOptions, MCPToolInfo } from './mcp-adapter-options';
import type { McpDefinitionPins } from './mcp-definition-pins';
import { summarizeMcpConfig } from './resolve-mcp-config';
import type { ResolvedMcpConfig } from './resolve-mcp-config';

/** What one `tools/list` gives an adapter: the checked listing, its entries, the generated class, the tools. */
export interface McpToolState {
  readonly listing: McpListing;
  readonly infos: readonly MCPToolInfo[];
  readonly generated: new () => object;
  /** Remote name → the tool built for it. */
  readonly tools: ReadonlyMap<string, NativeTool>;
}

/**
 * Turns the tools a server listed into the adapter's state: each definition checked (`buildMcpListing`) and
 * held against the pins, then one class generated with `@Tool` metadata and scanned by `scanTools`, as the
 * decorators would; `callRemote` runs each method.
 */
export function buildMcpToolState(
  wireTools: readonly unknown[],
  config: ResolvedMcpConfig,
  capabilities: MCPToolAdapterOptions['capabilities'],
  pins: McpDefinitionPins,
  callRemote: McpInvoke,
): McpToolState {
  const bound = pins.boundRemoteNames();
  const listing = pins.apply(
    buildMcpListing(wireTools, config, summarizeMcpConfig(config), capabilities, bound),
  );
  const generated = buildMcpToolClass(
    `MCPTools_${config.serverName.replace(/[^A-Za-z0-9_]/g, '_')}`,
    [...listing.entries.values()],
    callRemote,
  );
  const tools = new Map<string, NativeTool>();
  const scanned = scanTools(new generated());
  for (const entry of listing.entries.values())
    tools.set(entry.definition.name, scanned.find((tool) => tool.name === entry.localName) as NativeTool);
  const infos = listing.definitions
    .filter((definition) => listing.entries.has(definition.name))
    .map((definition) => {
      const tool = tools.get(definition.name) as NativeTool;
      return Object.freeze({
        ...definition,
        localName: tool.name,
        inputTypes: Object.freeze(toInputTypes(definition.inputSchema)),
        callable: (args?: Record<string, unknown>) => tool.call(args),
      });
    });
  return { listing, infos: Object.freeze(infos), generated, tools };
}
