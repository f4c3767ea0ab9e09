import { formatMcpToolListing, toInputTypes } from '../../../lib/mcp/client/format-mcp-tool-listing';
import type { MCPToolInfo } from '../../../lib/mcp/client';

describe('formatMcpToolListing', () => {
  it('writes the seed listing', () => {
    const info = {
      name: 'add',
      localName: 'add',
      description: 'Add',
      inputSchema: { type: 'object', properties: { a: { type: 'integer' } } },
      inputTypes: { a: 'integer' },
      annotations: {},
      callable: async () => null,
    } as MCPToolInfo;
    expect(formatMcpToolListing([info])).toBe(
      [
        '',
        '🛠 Available MCP Tools:',
        '',
        '🔹 Name       : add',
        '   Description: Add',
        '   Input Schema: {"type":"object","properties":{"a":{"type":"integer"}}}',
        '   Input Types : {"a":"integer"}',
        '',
        '',
      ].join('\n'),
    );
  });
});

describe('toInputTypes', () => {
  it('maps top-level properties to type names, any when unknown', () => {
    expect(
      toInputTypes({ properties: { a: { type: 'number' }, b: { type: ['string', 'null'] }, c: {} } }),
    ).toEqual({ a: 'number', b: 'any', c: 'any' });
    expect(toInputTypes(null)).toEqual({});
  });
});
