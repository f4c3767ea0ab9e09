import 'reflect-metadata';
import { createServer } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import type { AgentServerHandle, AgentServerOptions } from '../../lib/agents/agent-server-options';
import { startAgentServer } from '../../lib/server/start-agent-server';
import { createFakeAgent } from '../fixtures/serve/fake-agent';
import {
  callBody,
  connectHttpClient,
  MCP_HEADERS,
  openRawSession,
  rawRequest,
  waitFor,
} from '../fixtures/serve/http-helpers';

describe('startAgentServer', () => {
  const handles: AgentServerHandle[] = [];
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
    await Promise.all(handles.splice(0).map((handle) => handle.close()));
  });
  async function start(options: AgentServerOptions = {}, agent = createFakeAgent()) {
    const handle = await startAgentServer(agent, options);
    handles.push(handle);
    return { handle, agent };
  }
  async function client(url: string, headers: Record<string, string> = {}) {
    const connected = await connectHttpClient(url, headers);
    clients.push(connected);
    return connected;
  }

  describe('listening', () => {
    it('listens on 127.0.0.1 at a free port when the card asks for port 0', async () => {
      const { handle } = await start();
      expect(handle.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(handle.port).toBeGreaterThan(0);
      expect(handle.mcpUrl).toBe(`${handle.url}/mcp`);
      expect(handle.cardUrl).toBe(`${handle.url}/.well-known/agent.json`);
    });

    it("listens on the card's URL, and the url option wins over it", async () => {
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const port = (probe.address() as { port: number }).port;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      const { handle } = await start({}, createFakeAgent({ url: `http://127.0.0.1:${port}` }));
      expect(handle.port).toBe(port);
      const { handle: other } = await start(
        { url: 'http://localhost:0' },
        createFakeAgent({ url: `http://127.0.0.1:${port}` }),
      );
      expect(other.port).not.toBe(port);
      expect(other.url).toMatch(/^http:\/\/localhost:\d+$/);
    });

    it('refuses a non-loopback interface unless allowNonLoopback is set', async () => {
      for (const url of [
        'http://0.0.0.0:0',
        'http://192.168.1.20:8080',
        'http://[::]:0',
        'http://example.com:80',
      ]) {
        const error = await startAgentServer(createFakeAgent(), { url }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ToolInputError);
        expect((error as Error).message).toMatch(
          /Refusing to listen on .* not a loopback address.*allowNonLoopback: true/,
        );
      }
    });

    it('refuses URLs it cannot serve: https, a path, a non-URL', async () => {
      await expect(startAgentServer(createFakeAgent(), { url: 'https://127.0.0.1:0' })).rejects.toThrow(
        /only http:\/\/ is served; put a TLS proxy in front/,
      );
      await expect(startAgentServer(createFakeAgent(), { url: 'http://127.0.0.1:0/agent' })).rejects.toThrow(
        /give only scheme, host and port/,
      );
      await expect(startAgentServer(createFakeAgent(), { url: 'not a url' })).rejects.toThrow(ToolInputError);
    });

    it('refuses bad limits and session modes with a ToolInputError', async () => {
      await expect(startAgentServer(createFakeAgent(), { maxBodyBytes: 0 })).rejects.toThrow(
        /maxBodyBytes must be a positive number, got 0/,
      );
      await expect(startAgentServer(createFakeAgent(), { sessionMode: 'sticky' as never })).rejects.toThrow(
        /sessionMode must be 'stateful' or 'stateless', got 'sticky'/,
      );
    });

    it('refuses an empty or blank token instead of serving without authentication', async () => {
      for (const token of ['', '  ']) {
        await expect(startAgentServer(createFakeAgent(), { token })).rejects.toThrow(
          new ToolInputError(
            'token must be a non-empty string: an empty token would turn authentication off. Pass a real secret, or leave token out (null/undefined) to serve without one.',
          ),
        );
      }
    });

    it('says so when the port is taken', async () => {
      const { handle } = await start();
      const error = await startAgentServer(createFakeAgent(), { url: handle.url }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ToolInputError);
      expect((error as Error).message).toMatch(/the port is in use; pick another port/);
    });

    it('frees the port on close and tolerates a second close', async () => {
      const { handle } = await start();
      const session = await client(handle.mcpUrl);
      await session.listTools();
      await handle.close();
      await handle.close();
      await expect(
        rawRequest({ port: handle.port, method: 'GET', path: '/.well-known/agent.json' }),
      ).rejects.toThrow(/ECONNREFUSED/);
    });
  });

  describe('agent card', () => {
    it("serves the card's A2A JSON with its skills and the URL actually listened on", async () => {
      const { handle } = await start();
      const response = await rawRequest({
        port: handle.port,
        method: 'GET',
        path: '/.well-known/agent.json',
      });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json');
      expect(response.json).toMatchObject({ name: 'fixture-agent', version: '1.2.3', url: handle.url });
      expect(response.json.skills.map((skill: { id: string }) => skill.id)).toContain('book');
      const head = await rawRequest({ port: handle.port, method: 'HEAD', path: '/.well-known/agent.json' });
      expect(head.status).toBe(200);
      expect(head.body).toBe('');
    });

    it('answers other methods on the card with 405 and unknown paths with 404', async () => {
      const { handle } = await start();
      const post = await rawRequest({ port: handle.port, path: '/.well-known/agent.json', body: '{}' });
      expect(post.status).toBe(405);
      expect(post.headers.allow).toBe('GET, HEAD');
      const missing = await rawRequest({ port: handle.port, method: 'GET', path: '/admin' });
      expect(missing.status).toBe(404);
      expect(missing.json.error.message).toMatch(/Not found: \/admin; the MCP endpoint is \/mcp/);
    });
  });

  describe('stateful sessions', () => {
    it('serves the SDK client: lists and calls tools in one session', async () => {
      const { handle, agent } = await start();
      const session = await client(handle.mcpUrl);
      const { tools } = await session.listTools();
      expect(tools).toHaveLength(7);
      expect(await session.callTool({ name: 'add', arguments: { a: 20, b: 22 } })).toEqual({
        content: [{ type: 'text', text: '42' }],
        structuredContent: { result: 42 },
      });
      expect(handle.sessionCount).toBe(1);
      expect(agent.log.contexts[0].sessionId).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('closes a session on DELETE; its id then gets 404', async () => {
      const { handle } = await start();
      const session = await client(handle.mcpUrl);
      await session.listTools();
      const transport = session.transport as unknown as {
        sessionId: string;
        terminateSession(): Promise<void>;
      };
      const id = transport.sessionId;
      await transport.terminateSession();
      await waitFor(() => handle.sessionCount === 0);
      const after = await rawRequest({
        port: handle.port,
        headers: { ...MCP_HEADERS, 'mcp-session-id': id },
        body: callBody('add', { a: 1, b: 1 }),
      });
      expect(after.status).toBe(404);
    });

    it('aborts the tool when the client cancels the call over HTTP', async () => {
      const { handle, agent } = await start();
      const session = await client(handle.mcpUrl);
      const controller = new AbortController();
      const pending = session.callTool({ name: 'slow', arguments: {} }, CallToolResultSchema, {
        signal: controller.signal,
      });
      await waitFor(() => agent.log.executed.includes('slow'));
      controller.abort('stop');
      await expect(pending).rejects.toThrow();
      await waitFor(() => agent.log.aborted.includes('slow'));
      expect(await session.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).toEqual({
        content: [{ type: 'text', text: '3' }],
        structuredContent: { result: 3 },
      });
    });

    it.each([
      ['SSE', {}],
      ['JSON', { enableJsonResponse: true }],
    ])(
      'releases the open POST of a call the client canceled (%s responses)',
      async (_label, options: AgentServerOptions) => {
        const { handle, agent } = await start(options);
        const id = await openRawSession(handle.port);
        const headers = { ...MCP_HEADERS, 'mcp-session-id': id };
        const pending = rawRequest({ port: handle.port, headers, body: callBody('slow', {}, 5) });
        await waitFor(() => agent.log.executed.includes('slow'));
        const cancel = await rawRequest({
          port: handle.port,
          headers,
          body: JSON.stringify({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: 5, reason: 'user' },
          }),
        });
        expect(cancel.status).toBe(202);
        const released = await pending;
        expect(released.json?.result).toBeUndefined();
        expect(agent.log.aborted).toEqual(['slow']);
        const next = await rawRequest({
          port: handle.port,
          headers,
          body: callBody('add', { a: 1, b: 1 }, 6),
        });
        expect(next.json.result).toEqual({
          content: [{ type: 'text', text: '2' }],
          structuredContent: { result: 2 },
        });
      },
    );

    it('caps concurrent calls per session, not across sessions', async () => {
      const { handle, agent } = await start({ maxConcurrentCallsPerSession: 1 });
      const first = await client(handle.mcpUrl);
      const second = await client(handle.mcpUrl);
      const controller = new AbortController();
      const pending = first
        .callTool({ name: 'slow', arguments: {} }, CallToolResultSchema, { signal: controller.signal })
        .catch(() => 'canceled');
      await waitFor(() => agent.log.executed.includes('slow'));
      const refused = await first
        .callTool({ name: 'add', arguments: { a: 1, b: 1 } })
        .catch((caught: unknown) => caught);
      expect((refused as McpError).message).toMatch(
        /Too many concurrent tool calls in this session \(limit 1\)/,
      );
      expect(await second.callTool({ name: 'add', arguments: { a: 1, b: 1 } })).toEqual({
        content: [{ type: 'text', text: '2' }],
        structuredContent: { result: 2 },
      });
      controller.abort();
      await pending;
    });
  });

  describe('stateless mode', () => {
    it('serves the SDK client without sessions and refuses GET and DELETE with 405', async () => {
      const { handle } = await start({ sessionMode: 'stateless' });
      const session = await client(handle.mcpUrl);
      expect((await session.listTools()).tools).toHaveLength(7);
      expect(await session.callTool({ name: 'echo', arguments: { text: 'x' } })).toEqual({
        content: [{ type: 'text', text: 'x' }],
      });
      expect(handle.sessionCount).toBe(0);
      const get = await rawRequest({
        port: handle.port,
        method: 'GET',
        headers: { accept: 'text/event-stream' },
      });
      expect(get.status).toBe(405);
      expect(get.headers.allow).toBe('POST');
      const remove = await rawRequest({ port: handle.port, method: 'DELETE' });
      expect(remove.status).toBe(405);
    });

    it('answers a lone tools/call without initialize, and with plain JSON when enableJsonResponse is set', async () => {
      const { handle } = await start({ sessionMode: 'stateless', enableJsonResponse: true });
      const response = await rawRequest({
        port: handle.port,
        headers: MCP_HEADERS,
        body: callBody('add', { a: 2, b: 2 }),
      });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/application\/json/);
      expect(response.json.result).toEqual({
        content: [{ type: 'text', text: '4' }],
        structuredContent: { result: 4 },
      });
    });

    it('aborts the tool when the client disconnects mid-call', async () => {
      const { handle, agent } = await start({ sessionMode: 'stateless' });
      const { request } = await import('node:http');
      const outgoing = request({
        host: '127.0.0.1',
        port: handle.port,
        method: 'POST',
        path: '/mcp',
        headers: MCP_HEADERS,
      });
      outgoing.on('error', () => undefined);
      outgoing.end(callBody('slow', {}));
      await waitFor(() => agent.log.executed.includes('slow'));
      outgoing.destroy();
      await waitFor(() => agent.log.aborted.includes('slow'));
      expect(agent.log.contexts[0].canceled).toBe(true);
    });
  });

  describe('unknown tools', () => {
    it('answers an unknown tool with -32602 over HTTP', async () => {
      const { handle } = await start();
      const session = await client(handle.mcpUrl);
      const error = await session
        .callTool({ name: 'missing', arguments: {} })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    });
  });
});
