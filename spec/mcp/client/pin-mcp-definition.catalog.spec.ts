import { ToolInputError } from '../../../lib/errors/tool-input-error';
import type { MCPPromptInfo, MCPResourceInfo } from '../../../lib/mcp/client';
import {
  hashMcpCatalogDefinition,
  pinMcpCatalogDefinition,
  pinMcpToolDefinition,
} from '../../../lib/mcp/client/pin-mcp-definition';
import { isCatalogPinData, readMcpCatalogPins, readMcpPins } from '../../../lib/mcp/client/read-mcp-pins';

const note: MCPResourceInfo = {
  uri: 'memo://1',
  name: 'note',
  description: 'A note',
  mimeType: 'text/plain',
  size: 12,
  annotations: { audience: ['user'], lastModified: '2026-01-01T00:00:00Z' },
};
const review: MCPPromptInfo = {
  name: 'review',
  description: 'Reviews code',
  arguments: [{ name: 'code', description: '', required: true }],
};

describe('pinMcpCatalogDefinition', () => {
  it('pins a resource without size and lastModified, which change with the content', () => {
    const pin = pinMcpCatalogDefinition('resource', note);
    expect(pin).toEqual({
      kind: 'resource',
      name: 'memo://1',
      localName: 'memo://1',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      definition: {
        uri: 'memo://1',
        name: 'note',
        description: 'A note',
        mimeType: 'text/plain',
        annotations: { audience: ['user'] },
      },
    });
    const later = {
      ...note,
      size: 99,
      annotations: { audience: ['user'], lastModified: '2026-02-02T00:00:00Z' },
    };
    expect(hashMcpCatalogDefinition('resource', later)).toBe(pin.sha256);
    expect(
      hashMcpCatalogDefinition('resource', { ...note, annotations: { audience: ['assistant'] } }),
    ).not.toBe(pin.sha256);
    expect(Object.isFrozen(pin.definition)).toBe(true);
  });

  it('hashes a prompt the same whatever the key order, and differently when an argument becomes optional', () => {
    const reordered = JSON.parse(
      '{"arguments":[{"required":true,"description":"","name":"code"}],"description":"Reviews code","name":"review"}',
    ) as MCPPromptInfo;
    expect(hashMcpCatalogDefinition('prompt', reordered)).toBe(hashMcpCatalogDefinition('prompt', review));
    const optional = { ...review, arguments: [{ name: 'code', description: '', required: false }] };
    expect(hashMcpCatalogDefinition('prompt', optional)).not.toBe(hashMcpCatalogDefinition('prompt', review));
  });
});

describe('isCatalogPinData', () => {
  it('tells catalog pins from tool pins (no kind, or kind tool)', () => {
    expect(isCatalogPinData(pinMcpCatalogDefinition('prompt', review))).toBe(true);
    expect(isCatalogPinData({ name: 'x', sha256: '', definition: {} })).toBe(false);
    expect(isCatalogPinData({ kind: 'tool', name: 'x' })).toBe(false);
    expect(isCatalogPinData('x')).toBe(false);
  });
});

describe('readMcpCatalogPins', () => {
  const saved = (value: unknown, index = 0) => ({
    index,
    value: JSON.parse(JSON.stringify(value)) as unknown,
  });

  it('reads back exported pins, keeping an exact repeat once', () => {
    const pin = pinMcpCatalogDefinition('prompt', review);
    expect(readMcpCatalogPins([saved(pin), saved(pin, 1)], 'docs')).toEqual([pin]);
  });

  it('refuses two definitions of one prompt, naming the second', () => {
    const first = pinMcpCatalogDefinition('prompt', review);
    const second = pinMcpCatalogDefinition('prompt', { ...review, description: 'Other' });
    expect(() => readMcpCatalogPins([saved(first, 0), saved(second, 3)], 'docs')).toThrow(
      'pins of MCP server \'docs\' hold two different definitions of the prompt "review" (the second at pins[3]); remove the one you do not trust.',
    );
  });

  it('refuses a pin whose name is not its definition key', () => {
    const pin = { ...pinMcpCatalogDefinition('resource', note), name: 'memo://2' };
    expect(() => readMcpCatalogPins([saved(pin, 2)], 'docs')).toThrow(ToolInputError);
    expect(() => readMcpCatalogPins([saved(pin, 2)], 'docs')).toThrow('pins[2] of MCP server');
  });
});

describe('readMcpPins with catalog pins in the list', () => {
  it('skips them, keeping the positions of tool pins in messages', () => {
    const tool = pinMcpToolDefinition(
      { name: 'add', description: '', inputSchema: { type: 'object' }, annotations: {} },
      'add',
    );
    const list = [pinMcpCatalogDefinition('prompt', review), { ...tool, sha256: 'edited' }];
    expect(() => readMcpPins(list, { serverName: 'docs', namePrefix: '' })).toThrow(
      /^pins\[1\] \(tool 'add'\)/,
    );
    expect(readMcpPins([list[0], tool], { serverName: 'docs', namePrefix: '' })).toEqual([tool]);
  });
});
