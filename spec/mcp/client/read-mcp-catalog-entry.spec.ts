import { readMcpCatalogEntry } from '../../../lib/mcp/client/read-mcp-catalog-entry';

const limits = { maxChars: 2_000, maxDepth: 8 };

describe('readMcpCatalogEntry', () => {
  it('keeps only the modeled fields of a resource (no _meta, no icons), frozen', () => {
    const reading = readMcpCatalogEntry(
      'resource',
      {
        uri: 'memo://1',
        name: 'n',
        title: 'T',
        size: 3,
        _meta: { x: 1 },
        icons: [{ src: 'https://a/i.png' }],
      },
      0,
      'docs',
      limits,
    );
    expect(reading).toEqual({
      key: 'memo://1',
      definition: { uri: 'memo://1', name: 'n', title: 'T', description: '', size: 3, annotations: {} },
    });
    expect('definition' in reading && Object.isFrozen(reading.definition)).toBe(true);
  });

  it('fills a prompt argument without required as optional (the SDK schema has no argument title)', () => {
    const reading = readMcpCatalogEntry(
      'prompt',
      { name: 'p', arguments: [{ name: 'a', title: 'A' }] },
      0,
      'docs',
      limits,
    );
    expect('definition' in reading && reading.definition).toEqual({
      name: 'p',
      description: '',
      arguments: [{ name: 'a', description: '', required: false }],
    });
  });

  it('sets aside a prompt argument with an empty name', () => {
    const reading = readMcpCatalogEntry(
      'prompt',
      { name: 'p', arguments: [{ name: '' }] },
      0,
      'docs',
      limits,
    );
    expect('problem' in reading && reading.problem.message).toBe(
      'MCP prompt "p" on server \'docs\' declares an argument with an empty name; it is set aside.',
    );
  });

  it('cuts a very long key in messages', () => {
    const uri = `memo://${'x'.repeat(500)}`;
    const reading = readMcpCatalogEntry('resource', { uri, name: 7 }, 3, 'docs', {
      ...limits,
      maxChars: 10_000,
    });
    expect('problem' in reading && reading.problem.message).toMatch(
      new RegExp(
        `^MCP resource "memo://x{193}…" on server 'docs' does not match the MCP schema of a resource \\(name: `,
      ),
    );
    expect(reading.key).toBe(uri);
  });

  it('keys an entry without a usable key by its position', () => {
    const reading = readMcpCatalogEntry(
      'resourceTemplate',
      { uriTemplate: '', name: 'n' },
      4,
      'docs',
      limits,
    );
    expect(reading.key).toBe('#4');
    expect('problem' in reading && reading.problem.message).toBe(
      "The resource template at position 4 of the listing of MCP server 'docs' has an empty uriTemplate; it is set aside.",
    );
  });
});
