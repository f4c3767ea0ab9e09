import { ToolInputError } from '../../../lib/errors/tool-input-error';
import type { MCPPromptInfo, MCPToolDefinition } from '../../../lib/mcp/client';
import { acceptMcpChanges } from '../../../lib/mcp/client/accept-mcp-changes';
import { buildMcpListing } from '../../../lib/mcp/client/build-mcp-listing';
import { McpCatalogPins } from '../../../lib/mcp/client/mcp-definition-pins';
import { McpDefinitionPins } from '../../../lib/mcp/client/mcp-definition-pins';
import { pinMcpCatalogDefinition } from '../../../lib/mcp/client/pin-mcp-definition';
import { pinMcpToolDefinition } from '../../../lib/mcp/client/pin-mcp-definition';
import { resolveMcpConfig, summarizeMcpConfig } from '../../../lib/mcp/client/resolve-mcp-config';

const config = resolveMcpConfig({ command: 'server', serverName: 'docs' });
const tool = (description: string): MCPToolDefinition => ({
  name: 'review',
  description,
  inputSchema: { type: 'object' },
  annotations: {},
});
const prompt = (description: string): MCPPromptInfo => ({ name: 'review', description, arguments: [] });

/** Tool and prompt pins, each with a pending change under the name `review` (or only the prompt's). */
function pending(toolChanged = true): { tools: McpDefinitionPins; catalog: McpCatalogPins } {
  const tools = new McpDefinitionPins('refuse', config, () => undefined, [
    pinMcpToolDefinition(tool('Reviews code'), 'review'),
  ]);
  tools.apply(
    buildMcpListing(
      [tool(toolChanged ? 'Reviews code. <IMPORTANT>' : 'Reviews code')],
      config,
      summarizeMcpConfig(config),
      undefined,
    ),
  );
  const catalog = new McpCatalogPins('refuse', 'docs', () => undefined, [
    pinMcpCatalogDefinition('prompt', prompt('Reviews code')),
  ]);
  catalog.apply('prompt', new Map([['review', prompt('Reviews code. <IMPORTANT>')]]));
  return { tools, catalog };
}

describe('acceptMcpChanges', () => {
  it('accepts a plain name pending for one kind only', () => {
    const { tools, catalog } = pending(false);
    expect(acceptMcpChanges(['review'], tools, catalog, 'docs').catalog.map((change) => change.kind)).toEqual(
      ['prompt'],
    );
    expect(catalog.changes).toEqual([]);
  });

  it('refuses a plain name pending for a tool and a prompt, and accepts each with a selector', () => {
    const { tools, catalog } = pending();
    expect(() => acceptMcpChanges(['review'], tools, catalog, 'docs')).toThrow(ToolInputError);
    expect(() => acceptMcpChanges(['review'], tools, catalog, 'docs')).toThrow(
      `"review" names pending changes of MCP server 'docs' of several kinds (prompt, tool); accept one with a selector, e.g. adapter.acceptChanges([{ kind: 'prompt', name: "review" }]).`,
    );
    expect(tools.changes).toHaveLength(1);
    expect(catalog.changes).toHaveLength(1);

    expect(acceptMcpChanges([{ kind: 'tool', name: 'review' }], tools, catalog, 'docs')).toEqual({
      tools: ['review'],
      catalog: [],
    });
    expect(catalog.changes).toHaveLength(1);
    expect(
      acceptMcpChanges([{ kind: 'prompt', name: 'review' }], tools, catalog, 'docs').catalog,
    ).toHaveLength(1);
    expect(catalog.changes).toEqual([]);
  });

  it('accepts nothing when one of the names has nothing pending', () => {
    const { tools, catalog } = pending();
    expect(() =>
      acceptMcpChanges([{ kind: 'prompt', name: 'review' }, 'missing'], tools, catalog, 'docs'),
    ).toThrow(
      'MCP tool, resource or prompt "missing" on server \'docs\' has no definition change waiting for acceptance; pending: tool \'review\', prompt "review".',
    );
    expect(catalog.changes).toHaveLength(1);
  });

  it('accepts every pending change of every kind without names', () => {
    const { tools, catalog } = pending();
    const accepted = acceptMcpChanges(undefined, tools, catalog, 'docs');
    expect(accepted.tools).toEqual(['review']);
    expect(accepted.catalog.map((change) => change.name)).toEqual(['review']);
    expect([tools.changes, catalog.changes]).toEqual([[], []]);
  });

  it('refuses something that is not a name or selector', () => {
    const { tools, catalog } = pending();
    expect(() => acceptMcpChanges([42 as unknown as string], tools, catalog, 'docs')).toThrow(
      'acceptChanges() takes names (strings) or { kind, name } selectors.',
    );
  });
});
