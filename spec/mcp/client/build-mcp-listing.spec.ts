import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { buildMcpListing } from '../../../lib/mcp/client/build-mcp-listing';
import { resolveMcpConfig, summarizeMcpConfig } from '../../../lib/mcp/client/resolve-mcp-config';
import { toLocalToolName } from '../../../lib/mcp/client/map-mcp-tool-name';

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

  it('sets aside only the tool a capabilities callback fails for, naming it', () => {
    const listing = buildMcpListing(
      [
        { name: 'good', inputSchema: object },
        { name: 'odd', inputSchema: object },
      ],
      config,
      summary,
      (definition) => (definition.name === 'odd' ? ('records.write' as never) : ['records.read']),
    );
    expect([...listing.entries.keys()]).toEqual(['good']);
    expect(listing.entries.get('good')?.capabilities).toEqual(['records.read', 'mcp.srv']);
    const problem = listing.problems.get('odd');
    expect(problem).toBeInstanceOf(ToolDefinitionError);
    expect(problem?.message).toMatch(
      /^MCP tool "odd" on server 'srv': the capabilities callback failed for it: /,
    );
  });

  it('takes capabilities as a Set, for every tool or from the callback', () => {
    const forAll = buildMcpListing([{ name: 'ok', inputSchema: object }], config, summary, new Set(['A.b']));
    expect(forAll.entries.get('ok')?.capabilities).toEqual(['a.b', 'mcp.srv']);
    const fromCallback = buildMcpListing(
      [{ name: 'ok', inputSchema: object }],
      config,
      summary,
      () => new Set(['records.read', 'records.read']),
    );
    expect(fromCallback.entries.get('ok')?.capabilities).toEqual(['records.read', 'mcp.srv']);
  });

  it('fails the whole listing for a bad capabilities list given for every tool', () => {
    expect(() =>
      buildMcpListing([{ name: 'good', inputSchema: object }], config, summary, 'records.write' as never),
    ).toThrow(ToolDefinitionError);
  });

  it('sets aside the tool whose local name collides, keeping the first', () => {
    const plain = resolveMcpConfig({ command: 'node', serverName: 'srv' });
    const mapped = toLocalToolName('a.b');
    const listing = buildMcpListing(
      [
        { name: 'a.b', inputSchema: object },
        { name: mapped, inputSchema: object },
      ],
      plain,
      summary,
      undefined,
    );
    expect([...listing.entries.keys()]).toEqual(['a.b']);
    expect(listing.problems.get(mapped)).toBeInstanceOf(ToolDefinitionError);
  });

  it('leaves a colliding local name with the remote name a pin binds it to, even when listed later', () => {
    const plain = resolveMcpConfig({ command: 'node', serverName: 'srv' });
    const mapped = toLocalToolName('a.b');
    const listing = buildMcpListing(
      [
        { name: 'a.b', inputSchema: object },
        { name: mapped, inputSchema: object },
      ],
      plain,
      summary,
      undefined,
      new Set([mapped]),
    );
    expect([...listing.entries.keys()]).toEqual([mapped]);
    expect(listing.toRemote.get(mapped)).toBe(mapped);
    expect(listing.problems.get('a.b')?.message).toContain('"a.b" is set aside');
  });

  it('sets aside malformed entries one by one, keyed by name or position', () => {
    const plain = resolveMcpConfig({ command: 'node', serverName: 'srv' });
    const listing = buildMcpListing(
      [
        null,
        'tool',
        { name: 7, inputSchema: object },
        { name: 'none' },
        { name: 'text', inputSchema: 'x' },
        { name: 'list', inputSchema: [object] },
        { name: 'typed', inputSchema: { type: 'string' } },
        { name: 'out', inputSchema: object, outputSchema: 3 },
        { name: 'hints', inputSchema: object, annotations: { a: [[[[[[]]]]]] } },
        { name: 'either', inputSchema: { type: ['object', 'null'] }, annotations: 'x', description: 5 },
        { name: 'ok', inputSchema: object },
      ],
      { ...plain, maxSchemaDepth: 4 },
      summary,
      undefined,
    );
    expect([...listing.entries.keys()]).toEqual(['either', 'ok']);
    expect(listing.entries.get('either')?.definition).toEqual({
      name: 'either',
      description: '',
      inputSchema: { type: ['object', 'null'] },
      annotations: {},
    });
    const messages = Object.fromEntries([...listing.problems].map(([key, error]) => [key, error.message]));
    expect(messages).toEqual({
      '#0': "The tool at position 0 of the listing of MCP server 'srv' is not a JSON object; it is set aside.",
      '#1': "The tool at position 1 of the listing of MCP server 'srv' is not a JSON object; it is set aside.",
      '#2': "The tool at position 2 of the listing of MCP server 'srv' has a name that is not a string (number 7); it is set aside.",
      none: `MCP tool "none" on server 'srv' has no input schema.`,
      text: `MCP tool "text" on server 'srv' has an input schema that is not a JSON object.`,
      list: `MCP tool "list" on server 'srv' has an input schema that is not a JSON object.`,
      typed: `MCP tool "typed" on server 'srv' has an input schema of type "string"; tool arguments are one JSON object, so the server must declare type "object".`,
      out: `MCP tool "out" on server 'srv' has an output schema that is not a JSON object.`,
      hints: `MCP tool "hints" on server 'srv' has annotations nested deeper than 4 levels.`,
    });
    expect([...listing.problems.values()].every((problem) => problem instanceof ToolDefinitionError)).toBe(
      true,
    );
    expect(listing.definitions.map((definition) => definition.name)).toEqual(['typed', 'either', 'ok']);
  });

  it('sets aside a tool whose pattern the linear-time engine refuses', () => {
    const listing = buildMcpListing(
      [
        {
          name: 'back',
          inputSchema: { type: 'object', properties: { s: { type: 'string', pattern: '^(a)\\1$' } } },
        },
        {
          name: 'redos',
          inputSchema: { type: 'object', properties: { s: { type: 'string', pattern: '^(a|a)*$' } } },
        },
      ],
      config,
      summary,
      undefined,
    );
    expect([...listing.entries.keys()]).toEqual(['redos']);
    expect(listing.problems.get('back')?.message).toBe(
      `MCP tool "back" on server 'srv' has an input schema that cannot be used: The pattern "^(a)\\\\1$" uses back-references such as \\1, which the linear-time engine for untrusted schemas cannot run; the server must rewrite it without them. (at '#/properties/s/pattern')`,
    );
  });
});
