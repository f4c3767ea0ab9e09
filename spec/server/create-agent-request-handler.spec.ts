import 'reflect-metadata';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { createAgentRequestHandler } from '../../lib/server/create-agent-request-handler';
import type {
  AgentRequestHandler,
  AgentRequestHandlerOptions,
} from '../../lib/server/create-agent-request-handler';
import { createFakeAgent } from '../fixtures/serve/fake-agent';
import { callBody, connectHttpClient, MCP_HEADERS, rawRequest } from '../fixtures/serve/http-helpers';

type BodyParsing = 'none' | 'json' | 'consume';

/** Reads the body the way Express's json parser does: `request.body` set, the stream consumed. */
function frameworkParse(request: IncomingMessage, parsing: BodyParsing): Promise<void> {
  if (parsing === 'none' || request.method !== 'POST') return Promise.resolve();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (parsing === 'json') {
        Object.assign(request, { body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      }
      resolve();
    });
  });
}

describe('createAgentRequestHandler', () => {
  const servers: Server[] = [];
  const handlers: AgentRequestHandler[] = [];
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
    await Promise.all(handlers.splice(0).map((handler) => handler.close()));
    await Promise.all(
      servers.splice(0).map((server) => {
        server.closeAllConnections();
        return new Promise((resolve) => server.close(resolve));
      }),
    );
  });

  /** Mounts the handler in a plain node server whose own route answers every other path. */
  async function host(options: AgentRequestHandlerOptions = {}, parsing: BodyParsing = 'none') {
    const agent = createFakeAgent();
    const handler = createAgentRequestHandler(agent, options);
    handlers.push(handler);
    const server = createServer((request: IncomingMessage, response: ServerResponse) => {
      void frameworkParse(request, parsing)
        .then(() => handler.handle(request, response))
        .then((handled) => {
          if (!handled) response.end('app route');
        });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    return { agent, handler, port, base: `http://127.0.0.1:${port}` };
  }

  describe('handle', () => {
    it('serves MCP at a base path and the card, and passes every other path on', async () => {
      const { handler, port, base, agent } = await host({ path: '/agent/mcp' });
      const client = await connectHttpClient(`${base}/agent/mcp`);
      clients.push(client);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('add');
      expect(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).toEqual({
        content: [{ type: 'text', text: '3' }],
        structuredContent: { result: 3 },
      });
      expect(agent.log.executed).toEqual(['add']);
      expect(handler.sessionCount).toBe(1);
      const card = await rawRequest({ port, method: 'GET', path: '/.well-known/agent.json' });
      expect(card.status).toBe(200);
      expect(card.json.url).toBe(base);
      for (const path of ['/mcp', '/health', '/agent/mcp/x']) {
        const other = await rawRequest({ port, method: 'GET', path });
        expect({ path, status: other.status, body: other.body }).toEqual({
          path,
          status: 200,
          body: 'app route',
        });
      }
    });

    it('checks Host and Origin against the port each request arrived on', async () => {
      const { port } = await host();
      const own = await rawRequest({
        port,
        method: 'GET',
        path: '/.well-known/agent.json',
        headers: { origin: `http://localhost:${port}` },
      });
      expect(own.status).toBe(200);
      const foreignOrigin = await rawRequest({
        port,
        method: 'GET',
        path: '/.well-known/agent.json',
        headers: { origin: `http://localhost:${port + 1}` },
      });
      expect(foreignOrigin.status).toBe(403);
      expect(foreignOrigin.json.error.message).toBe(
        `Forbidden: Origin 'http://localhost:${port + 1}' is not allowed.`,
      );
      const foreignHost = await rawRequest({
        port,
        headers: { ...MCP_HEADERS, host: 'evil.example:80' },
        body: callBody('add', { a: 1, b: 1 }),
      });
      expect(foreignHost.status).toBe(403);
      expect(foreignHost.json.error.message).toMatch(/Host 'evil.example:80' is not allowed/);
    });

    it('requires the bearer token on the MCP path, not on the card', async () => {
      const { port } = await host({ token: 's3cret', sessionMode: 'stateless', enableJsonResponse: true });
      const missing = await rawRequest({ port, headers: MCP_HEADERS, body: callBody('add', { a: 1, b: 1 }) });
      expect(missing.status).toBe(401);
      expect(missing.json.error.message).toBe(
        'Unauthorized: send the header "Authorization: Bearer <token>".',
      );
      const good = await rawRequest({
        port,
        headers: { ...MCP_HEADERS, authorization: 'Bearer s3cret' },
        body: callBody('add', { a: 1, b: 1 }),
      });
      expect(good.json.result).toEqual({
        content: [{ type: 'text', text: '2' }],
        structuredContent: { result: 2 },
      });
      expect((await rawRequest({ port, method: 'GET', path: '/.well-known/agent.json' })).status).toBe(200);
    });

    it('answers unknown paths with 404 when unknownPaths is reject', async () => {
      const { port } = await host({ unknownPaths: 'reject' });
      const response = await rawRequest({ port, method: 'GET', path: '/nope' });
      expect(response.status).toBe(404);
      expect(response.json.error.message).toBe('Not found: /nope; the MCP endpoint is /mcp.');
    });

    it('serves no card when cardPath is null', async () => {
      const { port } = await host({ cardPath: null });
      expect((await rawRequest({ port, method: 'GET', path: '/.well-known/agent.json' })).body).toBe(
        'app route',
      );
    });
  });

  describe('bodies parsed by a framework', () => {
    const options: AgentRequestHandlerOptions = { sessionMode: 'stateless', enableJsonResponse: true };

    it('uses the parsed body instead of reading the stream', async () => {
      const { port, agent } = await host(options, 'json');
      const response = await rawRequest({
        port,
        headers: MCP_HEADERS,
        body: callBody('add', { a: 40, b: 2 }),
      });
      expect(response.status).toBe(200);
      expect(response.json.result).toEqual({
        content: [{ type: 'text', text: '42' }],
        structuredContent: { result: 42 },
      });
      expect(agent.log.executed).toEqual(['add']);
    });

    it('still refuses a body over maxBodyBytes with 413', async () => {
      const { port, agent } = await host({ ...options, maxBodyBytes: 64 }, 'json');
      const response = await rawRequest({
        port,
        headers: MCP_HEADERS,
        body: callBody('echo', { text: 'x'.repeat(200) }),
      });
      expect(response.status).toBe(413);
      expect(response.json.error.message).toBe('Payload Too Large: the request body exceeds 64 bytes.');
      expect(agent.log.executed).toEqual([]);
    });

    it('still refuses a parsed body that is not JSON-RPC', async () => {
      const { port } = await host(options, 'json');
      const response = await rawRequest({
        port,
        headers: MCP_HEADERS,
        body: JSON.stringify({ hello: 'world' }),
      });
      expect(response.status).toBe(400);
      expect(response.json.error.code).toBe(-32600);
    });

    it('says so when another middleware consumed the body without leaving it', async () => {
      const { port } = await host(options, 'consume');
      const response = await rawRequest({
        port,
        headers: MCP_HEADERS,
        body: callBody('add', { a: 1, b: 1 }),
      });
      expect(response.status).toBe(400);
      expect(response.json.error.message).toMatch(
        /^Bad Request: the request body was read by another middleware/,
      );
    });
  });

  describe('close', () => {
    it('closes every stateful session', async () => {
      const { handler, base } = await host();
      const client = await connectHttpClient(`${base}/mcp`);
      clients.push(client);
      expect(handler.sessionCount).toBe(1);
      await handler.close();
      expect(handler.sessionCount).toBe(0);
    });
  });

  describe('options', () => {
    it('refuses bad paths and limits with a ToolInputError', () => {
      const agent = createFakeAgent();
      expect(() => createAgentRequestHandler(agent, { path: 'mcp' })).toThrow(
        new ToolInputError("path must be a URL path starting with '/' (like '/mcp'), got 'mcp'."),
      );
      expect(() => createAgentRequestHandler(agent, { path: '/x', cardPath: '/x' })).toThrow(
        new ToolInputError("path and cardPath must differ, both are '/x'."),
      );
      expect(() => createAgentRequestHandler(agent, { maxBodyBytes: 0 })).toThrow(ToolInputError);
      expect(() => createAgentRequestHandler(agent, { maxBodyBytes: 0 })).toThrow(
        'maxBodyBytes must be a positive number, got 0.',
      );
    });

    it('refuses an empty or blank token instead of serving without authentication', () => {
      const agent = createFakeAgent();
      for (const token of ['', '   ', '\t\n']) {
        expect(() => createAgentRequestHandler(agent, { token })).toThrow(
          new ToolInputError(
            'token must be a non-empty string: an empty token would turn authentication off. Pass a real secret, or leave token out (null/undefined) to serve without one.',
          ),
        );
      }
    });
  });
});
