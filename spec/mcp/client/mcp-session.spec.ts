import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpSession } from '../../../lib/mcp/client/mcp-session';
import { resolveMcpConfig } from '../../../lib/mcp/client/resolve-mcp-config';
import { testServerStdio } from '../../fixtures/mcp/mcp-test-servers';

jest.setTimeout(20_000);

/** A streamable HTTP MCP server on 127.0.0.1 that never answers the DELETE ending a session. */
async function startServerIgnoringDelete(): Promise<{
  url: string;
  deletes: () => number;
  stop: () => Promise<void>;
}> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let deletes = 0;
  const server: HttpServer = createServer((request, response) => {
    void (async () => {
      if (request.method === 'DELETE') {
        deletes += 1;
        return;
      }
      const id = request.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? transports.get(id) : undefined;
      if (!transport) {
        const mcp = new Server(
          { name: 'hangs-on-delete', version: '1.0.0' },
          { capabilities: { tools: {} } },
        );
        mcp.setRequestHandler(ListToolsRequestSchema, () => ({
          tools: [{ name: 'noop', inputSchema: { type: 'object' as const } }],
        }));
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: true,
          onsessioninitialized: (sessionId): void => {
            transports.set(sessionId, created);
          },
        });
        transport = created;
        await mcp.connect(created);
      }
      await (transport as StreamableHTTPServerTransport).handleRequest(request, response);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    deletes: () => deletes,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('McpSession', () => {
  describe('close', () => {
    it('does not wait forever for an HTTP server that never answers the DELETE ending the session', async () => {
      const server = await startServerIgnoringDelete();
      try {
        const session = await McpSession.open(
          resolveMcpConfig({ transport: 'http', url: server.url, connectTimeoutMs: 500 }),
          () => undefined,
        );
        expect((await session.listToolsPage(undefined)).tools).toMatchObject([{ name: 'noop' }]);
        let timer: NodeJS.Timeout | undefined;
        const hung = new Promise<string>((resolve) => {
          timer = setTimeout(() => resolve('still waiting'), 8_000);
        });
        const outcome = await Promise.race([session.close().then(() => 'closed'), hung]);
        clearTimeout(timer);
        expect(outcome).toBe('closed');
        expect(server.deletes()).toBe(1);
        expect(session.alive).toBe(false);
      } finally {
        await server.stop();
      }
    });
  });

  describe('keeping the process alive', () => {
    /** The child processes and pipes that keep this process alive now (Node's own count). */
    const referenced = () =>
      process.getActiveResourcesInfo().filter((type) => type === 'ProcessWrap' || type === 'PipeWrap').length;
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

    it('holds a stdio child only while calls run, and lets go at the end of the turn, not between two calls', async () => {
      const before = referenced();
      const session = await McpSession.open(resolveMcpConfig(testServerStdio()), () => undefined);
      try {
        expect(referenced()).toBe(before);
        await session.callTool('add', { a: 2, b: 3 });
        // The next call of a caller that awaited this one starts now: the child and its pipes stay held.
        expect(referenced()).toBeGreaterThan(before);
        expect(await session.callTool('add', { a: 1, b: 1 })).toMatchObject({ content: [{ text: '2' }] });
        await nextTurn();
        expect(referenced()).toBe(before);
      } finally {
        await session.close();
      }
    });
  });
});
