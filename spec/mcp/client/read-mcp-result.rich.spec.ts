import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { readMcpResult } from '../../../lib/mcp/client/read-mcp-result';
import { ToolResult } from '../../../lib/tools/tool-result';

const options = { toolName: 'tool', serverName: 'srv', maxResultChars: 20 };

function rich(value: unknown): ToolResult {
  expect(ToolResult.isToolResult(value)).toBe(true);
  return value as ToolResult;
}

describe('readMcpResult with non-text parts', () => {
  it('returns a ToolResult with every part, in order, and the structured content', () => {
    const result = rich(
      readMcpResult(
        {
          content: [
            { type: 'image', data: 'AA==', mimeType: 'image/png' },
            { type: 'text', text: 'second' },
            { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
            { type: 'resource', resource: { uri: 'memo://1', text: 'note' } },
            { type: 'resource', resource: { uri: 'memo://2', mimeType: 'application/pdf', blob: 'AA==' } },
            { type: 'resource_link', uri: 'memo://3', name: 'three', size: 4 },
          ],
          structuredContent: { n: 1 },
        },
        options,
      ),
    );
    expect(result.toJSON()).toEqual({
      content: [
        { type: 'image', data: 'AA==', mimeType: 'image/png' },
        { type: 'text', text: 'second' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'memo://1', text: 'note' } },
        { type: 'resource', resource: { uri: 'memo://2', mimeType: 'application/pdf', blob: 'AA==' } },
        { type: 'resource_link', uri: 'memo://3', name: 'three', size: 4 },
      ],
      structuredContent: { n: 1 },
    });
  });

  it('drops MCP annotations and _meta from the parts', () => {
    const result = rich(
      readMcpResult(
        {
          content: [
            {
              type: 'image',
              data: 'AA==',
              mimeType: 'image/png',
              annotations: { priority: 1 },
              _meta: { x: 1 },
            },
          ],
        },
        options,
      ),
    );
    expect(result.content).toEqual([{ type: 'image', data: 'AA==', mimeType: 'image/png' }]);
  });

  it('cuts text parts and text resources to one shared maxResultChars budget', () => {
    const result = rich(
      readMcpResult(
        {
          content: [
            { type: 'text', text: 'a'.repeat(15) },
            { type: 'resource', resource: { uri: 'memo://1', text: 'b'.repeat(10) } },
            { type: 'text', text: 'ccc' },
            { type: 'image', data: 'AA==', mimeType: 'image/png' },
          ],
        },
        options,
      ),
    );
    expect(result.content).toEqual([
      { type: 'text', text: 'a'.repeat(15) },
      { type: 'resource', resource: { uri: 'memo://1', text: `${'b'.repeat(5)}… [cut: 5 more characters]` } },
      { type: 'text', text: '… [cut: 3 more characters]' },
      { type: 'image', data: 'AA==', mimeType: 'image/png' },
    ]);
  });

  it('rejects binary parts larger than maxBinaryBytes in total', () => {
    const content = [
      { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' },
      { type: 'resource' as const, resource: { uri: 'memo://1', blob: 'AAAA' } },
    ];
    expect(rich(readMcpResult({ content }, { ...options, maxBinaryBytes: 6 })).content).toHaveLength(2);
    expect(() => readMcpResult({ content }, { ...options, maxBinaryBytes: 5 })).toThrow(
      new ToolRuntimeError(
        "MCP tool 'tool' on server 'srv' returned more than 5 bytes of binary content (images, audio, blobs); raise maxMessageBytes to accept it.",
      ),
    );
  });

  it('rejects a malformed part with a ToolRuntimeError naming the tool and server', () => {
    const error = (() => {
      try {
        readMcpResult({ content: [{ type: 'image', data: 'not base64!', mimeType: 'image/png' }] }, options);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ToolRuntimeError);
    expect((error as ToolRuntimeError).message).toBe(
      "MCP tool 'tool' on server 'srv' sent a malformed content part: ToolResult.image: 'data' is not base64 (standard alphabet, padded, no whitespace or data: prefix); pass the bytes as a Uint8Array, or encode them with Buffer.from(bytes).toString('base64').",
    );
    expect((error as ToolRuntimeError).provider).toBe('srv');
    expect(() =>
      readMcpResult({ content: [{ type: 'resource_link', uri: 'memo://1' } as never] }, options),
    ).toThrow(
      "sent a malformed content part: ToolResult.resourceLink for 'memo://1' needs a non-empty 'name'",
    );
  });

  it('still checks the structured content size first', () => {
    expect(() =>
      readMcpResult(
        {
          content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }],
          structuredContent: { t: 'z'.repeat(30) },
        },
        options,
      ),
    ).toThrow('characters of structured content (at most 20)');
  });

  it('still throws isError results with the server text, whatever the parts', () => {
    expect(() =>
      readMcpResult(
        {
          isError: true,
          content: [
            { type: 'image', data: 'AA==', mimeType: 'image/png' },
            { type: 'text', text: 'no' },
          ],
        },
        options,
      ),
    ).toThrow("MCP tool 'tool' on server 'srv' returned an error: no");
  });
});
