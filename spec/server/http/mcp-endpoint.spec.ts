import 'reflect-metadata';
import { SESSION_ERA_VERSIONS } from '../../../lib/mcp/wire/protocol-eras';
import { McpEndpoint } from '../../../lib/server/http/mcp-endpoint';
import type { McpEndpointOptions } from '../../../lib/server/http/mcp-endpoint';
import { endpointOptions, hostEndpoint } from '../../fixtures/serve/endpoint-host';
import type { EndpointHost } from '../../fixtures/serve/endpoint-host';
import { createFakeAgent } from '../../fixtures/serve/fake-agent';
import { callBody, MCP_HEADERS, openRawSession, rawRequest } from '../../fixtures/serve/http-helpers';

describe('McpEndpoint', () => {
  let endpoint: McpEndpoint | undefined;
  let host: EndpointHost | undefined;
  afterEach(async () => {
    await endpoint?.close();
    await host?.close();
    endpoint = undefined;
    host = undefined;
  });

  async function serve(mode: McpEndpointOptions['sessionMode'], overrides: Partial<McpEndpointOptions> = {}) {
    const served = new McpEndpoint(createFakeAgent(), endpointOptions(mode, overrides));
    endpoint = served;
    host = await hostEndpoint((request, response) => served.handle(request, response));
    return { endpoint: served, port: host.port };
  }

  describe('handle', () => {
    it.each([
      ['stateful', 'PUT', 'GET, POST, DELETE'],
      ['stateful', 'PATCH', 'GET, POST, DELETE'],
      ['stateless', 'GET', 'POST'],
      ['stateless', 'DELETE', 'POST'],
    ] as const)('answers %s %s with 405 naming the methods served', async (mode, method, allow) => {
      const { port } = await serve(mode);
      const response = await rawRequest({ port, method, headers: { ...MCP_HEADERS }, body: '{}' });
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe(allow);
      expect(response.json).toEqual({
        jsonrpc: '2.0',
        error: { code: -32000, message: `Method not allowed: ${method}; use ${allow}.` },
        id: null,
      });
    });

    it.each(['stateful', 'stateless'] as const)(
      'reads the body once before the %s endpoint sees it: 413, parse error, invalid request',
      async (mode) => {
        const { port, endpoint: served } = await serve(mode, { maxBodyBytes: 100 });
        const post = (body: string) => rawRequest({ port, headers: { ...MCP_HEADERS }, body });
        const tooLarge = await post(callBody('echo', { text: 'x'.repeat(200) }));
        expect([tooLarge.status, tooLarge.json.error]).toEqual([
          413,
          { code: -32600, message: 'Payload Too Large: the request body exceeds 100 bytes.' },
        ]);
        const malformed = await post('{"jsonrpc":');
        expect([malformed.status, malformed.json.error]).toEqual([
          400,
          { code: -32700, message: 'Parse error: the request body is not valid JSON.' },
        ]);
        const notJsonRpc = await post('{"hello":"world"}');
        expect([notJsonRpc.status, notJsonRpc.json.error]).toEqual([
          400,
          {
            code: -32600,
            message: 'Invalid Request: the body is not a JSON-RPC 2.0 message (or batch of messages).',
          },
        ]);
        expect(served.sessionCount).toBe(0);
      },
    );

    it('hands a request naming an unknown revision to the session era, which refuses it with 400', async () => {
      const { port } = await serve('stateless');
      const response = await rawRequest({
        port,
        headers: { ...MCP_HEADERS, 'mcp-protocol-version': '1999-01-01' },
        body: callBody('add', { a: 1, b: 2 }),
      });
      expect(response.status).toBe(400);
      expect(response.json.error).toEqual({
        code: -32000,
        message: `Bad Request: Unsupported protocol version: 1999-01-01 (supported versions: ${[
          ...SESSION_ERA_VERSIONS,
        ]
          .reverse()
          .join(', ')})`,
      });
    });

    it('serves stateful mode with sessions and stateless mode with none', async () => {
      const stateful = await serve('stateful');
      const sessionId = await openRawSession(stateful.port);
      const call = await rawRequest({
        port: stateful.port,
        headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId },
        body: callBody('add', { a: 2, b: 3 }),
      });
      expect(call.json.result.structuredContent).toEqual({ result: 5 });
      expect(stateful.endpoint.sessionCount).toBe(1);
      await endpoint!.close();
      await host!.close();
      const stateless = await serve('stateless');
      const answer = await rawRequest({
        port: stateless.port,
        headers: { ...MCP_HEADERS },
        body: callBody('add', { a: 2, b: 3 }),
      });
      expect(answer.json.result.structuredContent).toEqual({ result: 5 });
      expect(answer.headers['mcp-session-id']).toBeUndefined();
      expect(stateless.endpoint.sessionCount).toBe(0);
    });
  });

  describe('close', () => {
    it('closes every session of the stateful endpoint', async () => {
      const { port, endpoint: served } = await serve('stateful');
      await openRawSession(port);
      await openRawSession(port);
      expect(served.sessionCount).toBe(2);
      await served.close();
      expect(served.sessionCount).toBe(0);
    });
  });
});
