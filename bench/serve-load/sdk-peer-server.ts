import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod';

function buildMcpServer(): McpServer {
  const mcp = new McpServer({ name: 'bare-sdk', version: '1.0.0' });
  mcp.registerTool(
    'add',
    { description: 'Add two integers', inputSchema: { a: z.number().int(), b: z.number().int() } },
    ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  return mcp;
}

/**
 * The peer: the bare MCP SDK served stateless the way its documentation shows, a new `McpServer` and
 * `StreamableHTTPServerTransport` (no session id generator) per POST, both closed when the response closes.
 */
export function createSdkPeerServer(): Server {
  return createServer((request, response) => {
    if (request.method !== 'POST') {
      request.resume();
      response
        .writeHead(405, { 'content-type': 'application/json' })
        .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Method not allowed."}}');
      return;
    }
    const mcp = buildMcpServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    void (async () => {
      await mcp.connect(transport);
      await transport.handleRequest(request, response);
    })().catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
}
