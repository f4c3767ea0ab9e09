import 'reflect-metadata';
import { StatelessEndpoint } from '../../../lib/mcp/rev2025-11-25/stateless-endpoint';
import type { StatelessEndpointOptions } from '../../../lib/mcp/rev2025-11-25/stateless-endpoint';
import { endpointOptions, hostEndpoint } from '../../fixtures/serve/endpoint-host';
import type { EndpointHost } from '../../fixtures/serve/endpoint-host';
import { createFakeAgent } from '../../fixtures/serve/fake-agent';
import { readJsonBody } from '../../fixtures/serve/shared-endpoints';
import { callBody, MCP_HEADERS, rawRequest, waitFor } from '../../fixtures/serve/http-helpers';

describe('StatelessEndpoint', () => {
  let endpoint: StatelessEndpoint | undefined;
  let host: EndpointHost | undefined;
  afterEach(async () => {
    await endpoint?.close();
    await host?.close();
    endpoint = undefined;
    host = undefined;
  });

  /** The endpoint behind a server that reads each body itself and hands it over, as the front door does. */
  async function serve(overrides: Partial<StatelessEndpointOptions> = {}) {
    const agent = createFakeAgent();
    const served = new StatelessEndpoint(agent, endpointOptions('stateless', overrides));
    endpoint = served;
    host = await hostEndpoint(async (request, response) =>
      served.handle(request, response, await readJsonBody(request)),
    );
    return { agent, endpoint: served, port: host.port };
  }

  const post = (port: number, body: string) => rawRequest({ port, headers: { ...MCP_HEADERS }, body });

  it('serves POST only, and holds no session', () => {
    const served = new StatelessEndpoint(createFakeAgent(), endpointOptions('stateless'));
    expect([served.methods, served.sessionCount]).toEqual([['POST'], 0]);
  });

  describe('handle', () => {
    it('answers each POST on its own: on the fast path, or with a server of its own', async () => {
      const { port } = await serve();
      const fast = await post(port, callBody('add', { a: 2, b: 3 }, 7));
      const viaSdk = await post(
        port,
        JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'add', arguments: { a: 2, b: 3 }, _meta: { progressToken: 'p' } },
        }),
      );
      expect([fast.headers['content-type'], viaSdk.headers['content-type']]).toEqual([
        'application/json',
        'text/event-stream',
      ]);
      for (const answer of [fast, viaSdk]) {
        expect(answer.headers['mcp-session-id']).toBeUndefined();
        expect(answer.json).toEqual({
          result: { content: [{ type: 'text', text: '5' }], structuredContent: { result: 5 } },
          jsonrpc: '2.0',
          id: 7,
        });
      }
    });

    it('caps the calls of every request together at maxConcurrentStatelessCalls (-32029)', async () => {
      const { port, agent } = await serve({ maxConcurrentStatelessCalls: 1 });
      const slow = post(port, callBody('slow', { ms: 300 }, 1));
      await waitFor(() => agent.log.executed.includes('slow'));
      const refused = await post(port, callBody('add', { a: 1, b: 1 }, 2));
      expect(refused.json.error.code).toBe(-32029);
      expect(refused.json.error.message).toMatch(/^MCP error -32029: Too many concurrent tool calls/);
      expect((await slow).json.result).toBeDefined();
    });
  });
});
