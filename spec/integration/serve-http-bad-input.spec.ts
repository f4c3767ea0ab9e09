import 'reflect-metadata';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { AgentServerHandle, AgentServerOptions } from '../../lib/agents/agent-server-options';
import { startAgentServer } from '../../lib/server/start-agent-server';
import { createFakeAgent } from '../fixtures/serve/fake-agent';
import {
  callBody,
  connectHttpClient,
  initializeBody,
  MCP_HEADERS,
  openRawSession,
  rawRequest,
  waitFor,
} from '../fixtures/serve/http-helpers';

// Every bad input gets the right HTTP/MCP error, runs nothing, and leaves the server serving others.
describe('startAgentServer (bad input)', () => {
  let handle: AgentServerHandle;
  let agent: ReturnType<typeof createFakeAgent>;
  let bystander: Client;

  async function start(options: AgentServerOptions = {}) {
    agent = createFakeAgent();
    handle = await startAgentServer(agent, options);
    bystander = await connectHttpClient(
      handle.mcpUrl,
      options.token ? { authorization: `Bearer ${options.token}` } : {},
    );
    await bystander.listTools();
  }

  async function expectStillServing() {
    const before = agent.log.executed.length;
    expect(await bystander.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).toEqual({
      content: [{ type: 'text', text: '3' }],
      structuredContent: { result: 3 },
    });
    expect(agent.log.executed.slice(before)).toEqual(['add']);
  }

  afterEach(async () => {
    await bystander?.close().catch(() => undefined);
    await handle?.close();
  });

  describe('malformed messages', () => {
    beforeEach(() => start());

    it('answers a body that is not JSON with 400 and the JSON-RPC parse error -32700', async () => {
      const response = await rawRequest({
        port: handle.port,
        headers: MCP_HEADERS,
        body: '{"jsonrpc":"2.0","id":1,"method":',
      });
      expect(response.status).toBe(400);
      expect(response.json).toEqual({
        jsonrpc: '2.0',
        error: { code: -32700, message: 'Parse error: the request body is not valid JSON.' },
        id: null,
      });
      await expectStillServing();
    });

    it('answers JSON that is not JSON-RPC (or an empty batch) with 400 and -32600', async () => {
      for (const body of [
        '{"hello":"world"}',
        '[]',
        '42',
        '{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
      ]) {
        const response = await rawRequest({ port: handle.port, headers: MCP_HEADERS, body });
        expect(response.status).toBe(400);
        expect(response.json.error).toEqual({
          code: -32600,
          message: 'Invalid Request: the body is not a JSON-RPC 2.0 message (or batch of messages).',
        });
      }
      await expectStillServing();
    });

    it('answers an unknown method with -32601 in the session', async () => {
      const id = await openRawSession(handle.port);
      const response = await rawRequest({
        port: handle.port,
        headers: { ...MCP_HEADERS, 'mcp-session-id': id },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/destroy', params: {} }),
      });
      expect(response.status).toBe(200);
      expect(response.json).toMatchObject({ id: 7, error: { code: -32601, message: 'Method not found' } });
      await expectStillServing();
    });

    it('answers an unknown tool with -32602 and invalid arguments with an isError result, running nothing', async () => {
      const id = await openRawSession(handle.port);
      const headers = { ...MCP_HEADERS, 'mcp-session-id': id };
      const unknown = await rawRequest({ port: handle.port, headers, body: callBody('rm_rf', {}) });
      expect(unknown.json.error).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/Unknown tool: rm_rf/),
      });
      const invalid = await rawRequest({
        port: handle.port,
        headers,
        body: callBody('book', { city: 3, guests: 'many', admin: true }),
      });
      expect(invalid.json.result.isError).toBe(true);
      expect(invalid.json.result.content[0].text).toMatch(/book/);
      const wrongShape = await rawRequest({
        port: handle.port,
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'add', arguments: 'a=1' },
        }),
      });
      expect(wrongShape.json.error).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/Invalid tools\/call request/),
      });
      expect(agent.log.executed).toEqual([]);
      await expectStillServing();
    });

    it('answers a wrong content type with 415 and a missing Accept with 406', async () => {
      const id = await openRawSession(handle.port);
      const wrongType = await rawRequest({
        port: handle.port,
        headers: { ...MCP_HEADERS, 'content-type': 'text/plain', 'mcp-session-id': id },
        body: callBody('add', { a: 1, b: 1 }),
      });
      expect(wrongType.status).toBe(415);
      const noAccept = await rawRequest({
        port: handle.port,
        headers: { 'content-type': 'application/json', 'mcp-session-id': id },
        body: callBody('add', { a: 1, b: 1 }),
      });
      expect(noAccept.status).toBe(406);
      expect(agent.log.executed).toEqual([]);
      await expectStillServing();
    });
  });

  describe('body size', () => {
    beforeEach(() => start({ maxBodyBytes: 4096 }));

    it('answers a declared Content-Length over the limit with 413 before reading the body', async () => {
      const body = callBody('echo', { text: 'x'.repeat(10_000) });
      const response = await rawRequest({ port: handle.port, headers: MCP_HEADERS, body });
      expect(response.status).toBe(413);
      expect(response.json.error.message).toBe('Payload Too Large: the request body exceeds 4096 bytes.');
      expect(agent.log.executed).toEqual([]);
      await expectStillServing();
    });

    it('answers a chunked body that grows past the limit with 413', async () => {
      function* chunks() {
        yield '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"';
        for (let index = 0; index < 10; index += 1) yield 'y'.repeat(1000);
        yield '"}}}';
      }
      const response = await rawRequest({
        port: handle.port,
        headers: { ...MCP_HEADERS, 'transfer-encoding': 'chunked' },
        body: chunks(),
      });
      expect(response.status).toBe(413);
      expect(agent.log.executed).toEqual([]);
      await expectStillServing();
    });

    it('accepts a body just under the limit', async () => {
      const id = await openRawSession(handle.port);
      const response = await rawRequest({
        port: handle.port,
        headers: { ...MCP_HEADERS, 'mcp-session-id': id },
        body: callBody('echo', { text: 'z'.repeat(3000) }),
      });
      expect(response.json.result.content[0].text).toHaveLength(3000);
    });
  });

  describe('bearer token', () => {
    beforeEach(() => start({ token: 's3cret-token' }));

    it('answers a missing token with 401 and a WWW-Authenticate challenge', async () => {
      const response = await rawRequest({
        port: handle.port,
        headers: MCP_HEADERS,
        body: callBody('add', { a: 1, b: 1 }),
      });
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="protolink"');
      expect(response.json.error.message).toBe(
        'Unauthorized: send the header "Authorization: Bearer <token>".',
      );
      expect(agent.log.executed).toEqual([]);
      await expectStillServing();
    });

    it('answers a wrong token (shorter, longer, other scheme) with 401 invalid_token', async () => {
      for (const authorization of ['Bearer s3cret', 'Bearer s3cret-token-and-more', 'Bearer S3CRET-TOKEN']) {
        const response = await rawRequest({
          port: handle.port,
          headers: { ...MCP_HEADERS, authorization },
          body: initializeBody(),
        });
        expect(response.status).toBe(401);
        expect(response.headers['www-authenticate']).toBe('Bearer realm="protolink", error="invalid_token"');
        expect(response.json.error.message).toBe('Unauthorized: the bearer token is not valid.');
      }
      const basic = await rawRequest({
        port: handle.port,
        headers: { ...MCP_HEADERS, authorization: 'Basic czNjcmV0LXRva2Vu' },
        body: initializeBody(),
      });
      expect(basic.status).toBe(401);
      expect(handle.sessionCount).toBe(1);
      await expectStillServing();
    });

    it('still serves the card without a token (A2A discovery is public)', async () => {
      const response = await rawRequest({
        port: handle.port,
        method: 'GET',
        path: '/.well-known/agent.json',
      });
      expect(response.status).toBe(200);
    });
  });

  describe('Host and Origin (DNS rebinding)', () => {
    beforeEach(() =>
      start({ allowedOrigins: ['https://console.example.com'], allowedHosts: ['agents.internal'] }),
    );

    it('answers a foreign Host with 403, on the card and the endpoint', async () => {
      for (const path of ['/mcp', '/.well-known/agent.json']) {
        const response = await rawRequest({
          port: handle.port,
          path,
          method: 'GET',
          headers: { ...MCP_HEADERS, host: `rebind.attacker.example:${handle.port}` },
        });
        expect(response.status).toBe(403);
        expect(response.json.error.message).toBe(
          `Forbidden: Host 'rebind.attacker.example:${handle.port}' is not allowed (DNS rebinding protection).`,
        );
      }
      const initialize = await rawRequest({
        port: handle.port,
        headers: { ...MCP_HEADERS, host: 'evil.example' },
        body: initializeBody(),
      });
      expect(initialize.status).toBe(403);
      expect(handle.sessionCount).toBe(1);
      await expectStillServing();
    });

    it('accepts loopback names and the configured hosts', async () => {
      for (const host of [
        `localhost:${handle.port}`,
        `127.0.0.1:${handle.port}`,
        `[::1]:${handle.port}`,
        'agents.internal:8443',
      ]) {
        const response = await rawRequest({
          port: handle.port,
          method: 'GET',
          path: '/.well-known/agent.json',
          headers: { host },
        });
        expect(response.status).toBe(200);
      }
    });

    it('answers a foreign Origin with 403 and accepts its own origin and the configured one', async () => {
      const foreign = await rawRequest({
        port: handle.port,
        headers: { ...MCP_HEADERS, origin: 'https://evil.example' },
        body: initializeBody(),
      });
      expect(foreign.status).toBe(403);
      expect(foreign.json.error.message).toBe("Forbidden: Origin 'https://evil.example' is not allowed.");
      const opaque = await rawRequest({
        port: handle.port,
        headers: { ...MCP_HEADERS, origin: 'null' },
        body: initializeBody(),
      });
      expect(opaque.status).toBe(403);
      const otherPort = await rawRequest({
        port: handle.port,
        headers: { ...MCP_HEADERS, origin: 'http://localhost:1' },
        body: initializeBody(),
      });
      expect(otherPort.status).toBe(403);
      expect(handle.sessionCount).toBe(1);
      for (const origin of [
        `http://127.0.0.1:${handle.port}`,
        `http://localhost:${handle.port}`,
        'https://console.example.com',
      ]) {
        const allowed = await rawRequest({
          port: handle.port,
          headers: { ...MCP_HEADERS, origin },
          body: initializeBody(),
        });
        expect(allowed.status).toBe(200);
      }
      expect(agent.log.executed).toEqual([]);
      await expectStillServing();
    });
  });

  describe('sessions', () => {
    it('answers an unknown session id with 404 -32001 and a request without one with 400', async () => {
      await start();
      const unknown = await rawRequest({
        port: handle.port,
        headers: { ...MCP_HEADERS, 'mcp-session-id': '00000000-0000-0000-0000-000000000000' },
        body: callBody('add', { a: 1, b: 1 }),
      });
      expect(unknown.status).toBe(404);
      expect(unknown.json.error).toEqual({
        code: -32001,
        message: 'Session not found: it expired or was closed; start a new session with initialize.',
      });
      const none = await rawRequest({
        port: handle.port,
        headers: MCP_HEADERS,
        body: callBody('add', { a: 1, b: 1 }),
      });
      expect(none.status).toBe(400);
      expect(none.json.error.message).toBe(
        'Bad Request: no Mcp-Session-Id header; send initialize first to open a session.',
      );
      expect(agent.log.executed).toEqual([]);
      await expectStillServing();
    });

    it('expires idle sessions: their ids get 404, and a new session works', async () => {
      await start({ sessionIdleTimeoutMs: 100 });
      const id = await openRawSession(handle.port);
      expect(handle.sessionCount).toBe(2);
      // The bystander's open GET event stream does not keep its session alive either: both expire.
      await waitFor(() => handle.sessionCount === 0);
      const expired = await rawRequest({
        port: handle.port,
        headers: { ...MCP_HEADERS, 'mcp-session-id': id },
        body: callBody('add', { a: 1, b: 1 }),
      });
      expect(expired.status).toBe(404);
      expect(expired.json.error.code).toBe(-32001);
      expect(agent.log.executed).toEqual([]);
      const fresh = await openRawSession(handle.port);
      const call = await rawRequest({
        port: handle.port,
        headers: { ...MCP_HEADERS, 'mcp-session-id': fresh },
        body: callBody('add', { a: 2, b: 2 }),
      });
      expect(call.json.result).toEqual({
        content: [{ type: 'text', text: '4' }],
        structuredContent: { result: 4 },
      });
    });

    it('never expires a session while one of its calls is still running', async () => {
      await start({ sessionIdleTimeoutMs: 100 });
      const id = await openRawSession(handle.port);
      const headers = { ...MCP_HEADERS, 'mcp-session-id': id };
      const pending = rawRequest({ port: handle.port, headers, body: callBody('slow', { ms: 1500 }) });
      await waitFor(() => agent.log.executed.includes('slow'));
      // The bystander, holding only its GET stream, expires; the session with a running call does not (its
      // call still completes, and its id still answers).
      await waitFor(() => handle.sessionCount === 1);
      expect((await pending).json.result).toEqual({ content: [{ type: 'text', text: 'done' }] });
      await waitFor(() => handle.sessionCount === 0);
    });

    it('answers a new session beyond maxSessions with 503', async () => {
      await start({ maxSessions: 1 });
      const response = await rawRequest({ port: handle.port, headers: MCP_HEADERS, body: initializeBody() });
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json.error.message).toBe('Service Unavailable: 1 sessions are open; retry later.');
      await expectStillServing();
    });
  });
});
