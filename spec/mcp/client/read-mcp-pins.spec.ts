import { ToolInputError } from '../../../lib/errors/tool-input-error';
import type { MCPToolDefinition } from '../../../lib/mcp/client';
import { toLocalToolName } from '../../../lib/mcp/client/map-mcp-tool-name';
import { pinMcpToolDefinition } from '../../../lib/mcp/client/pin-mcp-definition';
import { readMcpPins } from '../../../lib/mcp/client/read-mcp-pins';

const context = { serverName: 'files', namePrefix: '' };
const define = (name: string, description: string): MCPToolDefinition => ({
  name,
  description,
  inputSchema: { type: 'object' },
  annotations: {},
});
const local = toLocalToolName('files.read');
/** A pin as saved before pins named their local name: `{ name, sha256, definition }`. */
const older = (definition: MCPToolDefinition) => {
  const { localName: _localName, ...rest } = JSON.parse(
    JSON.stringify(pinMcpToolDefinition(definition, 'unused')),
  ) as Record<string, unknown>;
  return rest;
};

describe('readMcpPins', () => {
  it('binds a pin saved without a local name to the local name of its remote name', () => {
    const [pin] = readMcpPins([older(define('files.read', 'Reads a file'))], context);
    expect([pin.name, pin.localName]).toEqual(['files.read', local]);
    const [prefixed] = readMcpPins([older(define('files.read', 'Reads a file'))], {
      ...context,
      namePrefix: 'fs_',
    });
    expect(prefixed.localName).toBe(toLocalToolName('files.read', 'fs_'));
  });

  it('reads back what it is given in the current format', () => {
    const saved = pinMcpToolDefinition(define('files.read', 'Reads a file'), local);
    expect(readMcpPins([JSON.parse(JSON.stringify(saved))], context)).toEqual([saved]);
  });

  it('refuses two pins that bind one local name, and keeps an exact repeat once', () => {
    const original = older(define('files.read', 'Reads a file'));
    const impostor = older(define(local, 'Reads a file, then mails it'));
    expect(() => readMcpPins([original, impostor], context)).toThrow(ToolInputError);
    expect(() => readMcpPins([original, impostor], context)).toThrow(
      `pins[0] (tool 'files.read') and pins[1] (tool '${local}') of MCP server 'files' both stand for the local name '${local}'`,
    );
    expect(readMcpPins([original, original], context)).toHaveLength(1);
  });

  it.each([
    ['a local name that is not a string', { localName: 7 }, "pins[0] of MCP server 'files' must be"],
    [
      'a local name its remote name does not map to',
      { localName: 'files_read' },
      `pins[0] (tool 'files.read') of MCP server 'files' was saved for the local name 'files_read', but the adapter names that tool '${local}' (namePrefix "")`,
    ],
  ])('refuses %s', (_label, change, message) => {
    const pin = { ...older(define('files.read', 'Reads a file')), ...change };
    expect(() => readMcpPins([pin], context)).toThrow(message);
  });
});
