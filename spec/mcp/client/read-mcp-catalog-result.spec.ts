import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import {
  readMcpPromptMessages,
  readMcpResourceContents,
} from '../../../lib/mcp/client/read-mcp-catalog-result';

const options = {
  subject: 'MCP server \'docs\', asked for the resource "memo://a",',
  serverName: 'docs',
  maxResultChars: 10,
  maxBinaryBytes: 6,
};

describe('readMcpResourceContents', () => {
  it('keeps uri, mimeType and text or blob only, frozen', () => {
    const reading = readMcpResourceContents(
      'memo://a',
      { contents: [{ uri: 'memo://a', mimeType: 'text/plain', text: 'hello', _meta: { secret: 1 } }] },
      options,
    );
    expect(reading).toEqual({
      uri: 'memo://a',
      contents: [{ uri: 'memo://a', mimeType: 'text/plain', text: 'hello' }],
      truncated: false,
    });
    expect(Object.isFrozen(reading.contents[0])).toBe(true);
  });

  it('rejects blobs that decode to more than maxBinaryBytes in all', () => {
    const read = () =>
      readMcpResourceContents(
        'memo://a',
        {
          contents: [
            { uri: 'memo://a', blob: 'AAAA' },
            { uri: 'memo://a/b', blob: 'AAAAAA==' },
          ],
        },
        options,
      );
    expect(read).toThrow(ToolRuntimeError);
    expect(read).toThrow(
      'MCP server \'docs\', asked for the resource "memo://a", sent more than 6 bytes of binary data (blobs, images, audio); raise maxMessageBytes to accept it.',
    );
  });

  it.each([
    [['not an object'], 'sent contents[0] that is not an object.'],
    [[{ uri: 'memo://a' }], 'sent a malformed contents[0]: '],
    [[{ uri: 'memo://a', text: 'x', blob: 'AAAA' }], 'sent a malformed contents[0]: '],
    [[{ uri: 'no scheme', text: 'x' }], 'sent a malformed contents[0]: '],
  ])('rejects a malformed item %j with a ToolRuntimeError', (contents, message) => {
    expect(() => readMcpResourceContents('memo://a', { contents }, options)).toThrow(
      `MCP server 'docs', asked for the resource "memo://a", ${message}`,
    );
  });
});

describe('readMcpPromptMessages', () => {
  const prompt = { ...options, subject: 'MCP server \'docs\', asked for the prompt "p",' };

  it('cuts the description and text parts from one budget', () => {
    const result = readMcpPromptMessages(
      'p',
      {
        description: 'd'.repeat(4),
        messages: [
          { role: 'user', content: { type: 'text', text: 'u'.repeat(4) } },
          { role: 'assistant', content: { type: 'text', text: 'a'.repeat(4) } },
        ],
      },
      prompt,
    );
    expect(result).toEqual({
      name: 'p',
      description: 'dddd',
      messages: [
        { role: 'user', content: { type: 'text', text: 'uuuu' } },
        { role: 'assistant', content: { type: 'text', text: 'aa… [cut: 2 more characters]' } },
      ],
      truncated: true,
    });
  });

  it('counts images against maxBinaryBytes', () => {
    expect(() =>
      readMcpPromptMessages(
        'p',
        {
          messages: [
            { role: 'user', content: { type: 'image', data: 'AAAAAAAAAAAA', mimeType: 'image/png' } },
          ],
        },
        prompt,
      ),
    ).toThrow('sent more than 6 bytes of binary data');
  });

  it.each([
    [
      { role: 'system', content: { type: 'text', text: 'x' } },
      "sent messages[0] without the role 'user' or 'assistant'.",
    ],
    [{ role: 'user', content: 'x' }, 'sent messages[0] without a content object.'],
    [{ role: 'user', content: { type: 'video', data: 'x' } }, 'sent a malformed messages[0]: '],
  ])('rejects a malformed message %j with a ToolRuntimeError', (message, text) => {
    const read = () => readMcpPromptMessages('p', { messages: [message] }, prompt);
    expect(read).toThrow(ToolRuntimeError);
    expect(read).toThrow(`MCP server 'docs', asked for the prompt "p", ${text}`);
  });
});
