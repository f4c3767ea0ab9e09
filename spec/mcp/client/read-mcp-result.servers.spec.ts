// Rich results through MCPToolAdapter against real MCP servers over stdio: server-everything's media tools,
// our test server's mixed result, and a served Protolink tool returning a ToolResult (toRichCallToolResult).
import { MCPToolAdapter } from '../../../lib/mcp/client';
import { ToolResult } from '../../../lib/tools/tool-result';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { toRichCallToolResult } from '../../../lib/mcp/wire/to-rich-call-tool-result';
import { serveStreamableHttp } from '../../../samples/05-mcp/serve-streamable-http';
import { everythingStdio, testServerStdio } from '../../fixtures/mcp/mcp-test-servers';

jest.setTimeout(60_000);

function rich(value: unknown): ToolResult {
  expect(ToolResult.isToolResult(value)).toBe(true);
  return value as ToolResult;
}

describe('MCPToolAdapter rich results', () => {
  describe('against @modelcontextprotocol/server-everything', () => {
    const adapter = new MCPToolAdapter(everythingStdio());
    afterAll(() => adapter.close());

    it('returns text and the image of get-tiny-image as a ToolResult, in order', async () => {
      const result = rich(await adapter.getCallable('get-tiny-image')({}));
      expect(result.content.map((part) => part.type)).toEqual(['text', 'image', 'text']);
      const image = result.content[1] as { data: string; mimeType: string };
      expect(image.mimeType).toBe('image/png');
      expect(Buffer.from(image.data, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
    });

    it('returns embedded text and blob resources', async () => {
      const text = rich(
        await adapter.getCallable('get-resource-reference')({ resourceType: 'Text', resourceId: 2 }),
      );
      expect(text.content[1]).toMatchObject({
        type: 'resource',
        resource: { uri: expect.stringMatching(/\/2$/), mimeType: 'text/plain', text: expect.any(String) },
      });
      const blob = rich(
        await adapter.getCallable('get-resource-reference')({ resourceType: 'Blob', resourceId: 3 }),
      );
      const resource = (blob.content[1] as { resource: { blob: string } }).resource;
      expect(Buffer.from(resource.blob, 'base64').toString('utf8')).toMatch(
        /^Resource 3: This is a base64 blob/,
      );
    });

    it('returns resource links', async () => {
      const result = rich(await adapter.getCallable('get-resource-links')({ count: 2 }));
      expect(result.content).toEqual([
        { type: 'text', text: expect.stringContaining('2 resource links') },
        expect.objectContaining({ type: 'resource_link', name: 'Blob Resource 1', uri: expect.any(String) }),
        expect.objectContaining({ type: 'resource_link', name: 'Text Resource 2', mimeType: 'text/plain' }),
      ]);
    });

    it('keeps text-only results as before', async () => {
      expect(await adapter.getCallable('echo')({ message: 'plain' })).toBe('Echo: plain');
    });
  });

  describe('against the test server', () => {
    it('returns audio, a blob resource and the structured content', async () => {
      const adapter = new MCPToolAdapter(testServerStdio());
      try {
        const result = rich(await adapter.getCallable('rich')({}));
        expect(result.toJSON()).toEqual({
          content: [
            { type: 'text', text: 'two attachments' },
            { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
            {
              type: 'resource',
              resource: { uri: 'file:///q3.pdf', mimeType: 'application/pdf', blob: 'JVBERg==' },
            },
          ],
          structuredContent: { attachments: 2 },
        });
      } finally {
        await adapter.close();
      }
    });
  });

  describe('against a served ToolResult (toRichCallToolResult) over HTTP', () => {
    const PNG = Buffer.from('89504e470d0a1a0a', 'hex');
    const served = ToolResult.of(
      'chart',
      ToolResult.image(PNG, 'image/png'),
      ToolResult.audio(PNG, 'audio/wav'),
      ToolResult.resource({ uri: 'memo://notes/1', mimeType: 'text/markdown', text: '# Notes' }),
      ToolResult.resource({ uri: 'file:///q3.pdf', mimeType: 'application/pdf', blob: PNG }),
      ToolResult.resourceLink({ uri: 'file:///q4.pdf', name: 'q4.pdf', title: 'Q4', size: 8 }),
    ).withStructuredContent({ charts: 1 });
    let http: Server;
    let adapter: MCPToolAdapter;

    beforeAll(async () => {
      http = await serveStreamableHttp(
        () => {
          const server = new McpServer({ name: 'rich', version: '1.0.0' });
          server.registerTool('rich', { description: 'Returns a rich result' }, () =>
            toRichCallToolResult(served),
          );
          return server;
        },
        { port: 0 },
      );
      const { port } = http.address() as AddressInfo;
      adapter = new MCPToolAdapter({
        transport: 'http',
        url: `http://127.0.0.1:${port}/mcp`,
        serverName: 'rich',
      });
    });
    afterAll(async () => {
      await adapter.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    });

    it('gives the caller the same parts and structured content back', async () => {
      const result = rich(await adapter.getCallable('rich')({}));
      expect(result.toJSON()).toEqual(served.toJSON());
    });
  });
});
