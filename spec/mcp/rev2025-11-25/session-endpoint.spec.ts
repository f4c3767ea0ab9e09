import 'reflect-metadata';
import { SessionEndpoint } from '../../../lib/mcp/rev2025-11-25/session-endpoint';
import type { SessionEndpointOptions } from '../../../lib/mcp/rev2025-11-25/session-endpoint';
import { endpointOptions, hostEndpoint } from '../../fixtures/serve/endpoint-host';
import type { EndpointHost } from '../../fixtures/serve/endpoint-host';
import { createFakeAgent } from '../../fixtures/serve/fake-agent';
import { readJsonBody } from '../../fixtures/serve/shared-endpoints';
import {
  callBody,
  initializeBody,
  MCP_HEADERS,
  openRawSession,
  rawRequest,
} from '../../fixtures/serve/http-helpers';

describe('SessionEndpoint', () => {
  let endpoint: SessionEndpoint | undefined;
  let host: EndpointHost | undefined;
  afterEach(async () => {
    await endpoint?.close();
    await host?.close();
    endpoint = undefined;
    host = undefined;
  });

  /** The endpoint behind a server that reads each body itself and hands it over, as the front door does. */
  async function serve(overrides: Partial<SessionEndpointOptions> = {}) {
    const served = new SessionEndpoint(createFakeAgent(), endpointOptions('stateful', overrides));
    endpoint = served;
    host = await hostEndpoint(async (request, response) =>
      served.handle(request, response, await readJsonBody(request)),
    );
    return { endpoint: served, port: host.port };
  }

  function inSession(port: number, sessionId: string, method: string, body?: string) {
    return rawRequest({ port, method, headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId }, body });
  }

  it('serves GET, POST and DELETE', () => {
    expect(new SessionEndpoint(createFakeAgent(), endpointOptions('stateful')).methods).toEqual([
      'GET',
      'POST',
      'DELETE',
    ]);
  });

  describe('handle', () => {
    it('opens a session on initialize, serves calls in it, and ends it on DELETE', async () => {
      const { port, endpoint: served } = await serve();
      const sessionId = await openRawSession(port);
      expect(served.sessionCount).toBe(1);
      const call = await inSession(port, sessionId, 'POST', callBody('add', { a: 20, b: 22 }, 5));
      expect(call.headers['mcp-session-id']).toBe(sessionId);
      expect(call.json).toEqual({
        result: { content: [{ type: 'text', text: '42' }], structuredContent: { result: 42 } },
        jsonrpc: '2.0',
        id: 5,
      });
      expect((await inSession(port, sessionId, 'DELETE')).status).toBe(200);
      expect(served.sessionCount).toBe(0);
      const gone = await inSession(port, sessionId, 'POST', callBody('add', { a: 1, b: 1 }));
      expect([gone.status, gone.json.error]).toEqual([
        404,
        {
          code: -32001,
          message: 'Session not found: it expired or was closed; start a new session with initialize.',
        },
      ]);
    });

    it.each([
      ['a call', 'POST', callBody('add', { a: 1, b: 1 })],
      ['a GET', 'GET', undefined],
    ])('answers %s without Mcp-Session-Id with 400', async (_name, method, body) => {
      const { port } = await serve();
      const response = await rawRequest({ port, method, headers: { ...MCP_HEADERS }, body });
      expect([response.status, response.json.error]).toEqual([
        400,
        {
          code: -32000,
          message: 'Bad Request: no Mcp-Session-Id header; send initialize first to open a session.',
        },
      ]);
    });

    it('refuses an initialize beyond maxSessionsPerClient (429) and maxSessions (503)', async () => {
      const { port } = await serve({ maxSessions: 2, maxSessionsPerClient: 1 });
      await openRawSession(port);
      const initialize = (localAddress?: string) =>
        rawRequest({ port, headers: { ...MCP_HEADERS }, body: initializeBody(), localAddress });
      const perClient = await initialize();
      expect([perClient.status, perClient.headers['retry-after'], perClient.json.error]).toEqual([
        429,
        '5',
        {
          code: -32000,
          message:
            'Too Many Requests: this client already has 1 sessions open; close one (DELETE) or retry later.',
        },
      ]);
      expect((await initialize('127.0.0.2')).status).toBe(200);
      const full = await initialize('127.0.0.3');
      expect([full.status, full.json.error]).toEqual([
        503,
        { code: -32000, message: 'Service Unavailable: 2 sessions are open; retry later.' },
      ]);
    });
  });

  describe('close', () => {
    it('closes every session', async () => {
      const { port, endpoint: served } = await serve();
      const sessionId = await openRawSession(port);
      await openRawSession(port);
      expect(served.sessionCount).toBe(2);
      await served.close();
      expect(served.sessionCount).toBe(0);
      const gone = await inSession(port, sessionId, 'POST', callBody('add', { a: 1, b: 1 }));
      expect(gone.status).toBe(404);
    });
  });
});
