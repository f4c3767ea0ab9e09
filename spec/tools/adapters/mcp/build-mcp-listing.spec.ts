import { ToolDefinitionError } from '../../../../lib/errors/tool-definition-error';
import { buildMcpListing } from '../../../../lib/tools/adapters/mcp/build-mcp-listing';
import { resolveMcpConfig, summarizeMcpConfig } from '../../../../lib/tools/adapters/mcp/resolve-mcp-config';
import { toLocalToolName } from '../../../../lib/tools/adapters/mcp/map-mcp-tool-name';

const config = resolveMcpConfig({ command: 'node', serverName: 'srv', namePrefix: 'p_' });
const summary = summarizeMcpConfig(config);
const object = { type: 'object' as const };

describe('buildMcpListing', () => {
  it('prepares names, capabilities and metadata, and sets aside empty, duplicate and unusable tools', () => {
    const listing = buildMcpListing(
      [
        { name: 'ok', inputSchema: object, annotations: { readOnlyHint: true }, title: 'OK' },
        { name: 'ok', inputSchema: object },
        { name: '', inputSchema: object },
        { name: 'bad', inputSchema: { type: 'object', properties: { x: { type: 'nope' } } } as never },
      ],
      config,
      summary,
      ['mcp.use'],
    );
    expect(listing.definitions.map((definition) => definition.name)).toEqual(['ok', 'bad']);
    const entry = listing.entries.get('ok');
    expect(entry).toMatchObject({ localName: 'p_ok', capabilities: ['mcp.use', 'mcp.srv'] });
    expect(entry?.metadata).toEqual({
      mcp: summary,
      remoteName: 'ok',
      title: 'OK',
      annotations: { readOnlyHint: true },
    });
    expect(listing.toRemote.get('p_ok')).toBe('ok');
    expect([...listing.problems.keys()].sort()).toEqual(['', 'bad', 'ok#duplicate']);
    expect(listing.problems.get('')?.message).toBe(
      "A tool on MCP server 'srv' has an empty name; it cannot be exported.",
    );
    expect(listing.problems.get('ok#duplicate')?.message).toBe(
      `MCP tool "ok" on server 'srv' is listed twice; only the first definition is used.`,
    );
    expect(listing.problems.get('bad')).toBeInstanceOf(ToolDefinitionError);
  });

  it('reports a local-name collision instead of overwriting', () => {
    const plain = resolveMcpConfig({ command: 'node', serverName: 'srv' });
    expect(() =>
      buildMcpListing(
        [
          { name: 'a.b', inputSchema: object },
          { name: toLocalToolName('a.b'), inputSchema: object },
        ],
        plain,
        summary,
        undefined,
      ),
    ).toThrow(ToolDefinitionError);
  });
});
