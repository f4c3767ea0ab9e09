// Serves MCP servers over streamable HTTP on 127.0.0.1: one McpServer per session, 404 for unknown sessions.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** Options of {@link serveStreamableHttp}. */
export interface ServeStreamableHttpOptions {
  /** The port (0 picks a free one). */
  port: number;
  /** The path of the MCP endpoint (default `/mcp`). */
  path?: string;
}

/** Starts an HTTP server on 127.0.0.1 that hands each new MCP session its own server from `createMcpServer`. */
export async function serveStreamableHttp(
  createMcpServer: () => McpServer,
  options: ServeStreamableHttpOptions,
): Promise<Server> {
  const path = options.path ?? '/mcp';
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (new URL(request.url ?? '/', 'http://127.0.0.1').pathname !== path) {
      response.writeHead(404).end();
      return;
    }
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const existing = sessions.get(sessionId);
      if (!existing) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }),
        );
        return;
      }
      await existing.handleRequest(request, response);
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await createMcpServer().connect(transport);
    await transport.handleRequest(request, response);
  };
  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  return server;
}
