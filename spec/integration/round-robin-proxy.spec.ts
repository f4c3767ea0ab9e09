import 'reflect-metadata';
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startAgentServer } from '../../lib/server/start-agent-server';
import type { AgentServerHandle } from '../../lib/agents/agent-server-options';
import { startRoundRobinProxy } from '../fixtures/round-robin-proxy';
import type { RoundRobinProxy } from '../fixtures/round-robin-proxy';
import { createFakeAgent } from '../fixtures/serve/fake-agent';
import { connectHttpClient, rawRequest, waitFor } from '../fixtures/serve/http-helpers';

/** A plain HTTP target that records what reached it. */
interface Target {
  readonly url: string;
  readonly port: number;
  readonly seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[];
  handler: (request: IncomingMessage, response: ServerResponse, index: number) => void;
  close(): Promise<void>;
}

async function startTarget(name: string): Promise<Target> {
  const seen: Target['seen'] = [];
  const target: Partial<Target> & { handler: Target['handler'] } = {
    seen,
    handler: (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain', 'x-target': name });
      response.end(name);
    },
  };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, body });
      target.handler(request, response, seen.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(target, {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  }) as Target;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('startRoundRobinProxy', () => {
  let targets: Target[] = [];
  let proxy: RoundRobinProxy | undefined;

  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
    await Promise.all(targets.map((target) => target.close()));
    targets = [];
  });

  it('sends each request to the next target in turn, whatever its Mcp-Session-Id', async () => {
    targets = await Promise.all(['a', 'b', 'c'].map(startTarget));
    proxy = await startRoundRobinProxy({ targets: targets.map((target) => target.url) });
    const answers: string[] = [];
    for (let index = 0; index < 7; index += 1) {
      // The same session id every time: a sticky balancer would send all of them to one target.
      const response = await rawRequest({
        port: proxy.port,
        method: 'GET',
        path: '/mcp',
        headers: { 'mcp-session-id': 'same-session' },
      });
      answers.push(response.body);
    }
    expect(answers).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'a']);
    expect(proxy.requestsPerTarget).toEqual([3, 2, 2]);
    expect(proxy.badGateways).toBe(0);
  });

  it('passes method, path, body and end-to-end headers through, and drops hop-by-hop ones', async () => {
    targets = [await startTarget('only')];
    targets[0].handler = (_request, response) => {
      response.writeHead(201, { 'mcp-session-id': 'from-server', 'x-extra': 'kept' });
      response.end('created');
    };
    proxy = await startRoundRobinProxy({ targets: [targets[0].url] });
    const response = await rawRequest({
      port: proxy.port,
      method: 'POST',
      path: '/mcp?x=1',
      headers: {
        authorization: 'Bearer secret',
        'mcp-session-id': 's-1',
        'last-event-id': 'stream_7',
        'content-type': 'application/json',
        connection: 'keep-alive, x-private',
        'x-private': 'connection-only',
      },
      body: '{"jsonrpc":"2.0"}',
    });
    expect(response.status).toBe(201);
    expect(response.body).toBe('created');
    expect(response.headers['mcp-session-id']).toBe('from-server');
    expect(response.headers['x-extra']).toBe('kept');
    const [seen] = targets[0].seen;
    expect(seen).toMatchObject({ method: 'POST', url: '/mcp?x=1', body: '{"jsonrpc":"2.0"}' });
    expect(seen.headers).toMatchObject({
      authorization: 'Bearer secret',
      'mcp-session-id': 's-1',
      'last-event-id': 'stream_7',
      host: `127.0.0.1:${proxy.port}`,
    });
    expect(seen.headers['x-private']).toBeUndefined();
  });

  it('streams an SSE response event by event, and closes the upstream request when the client goes', async () => {
    targets = [await startTarget('sse')];
    let upstreamClosed = false;
    let sendSecond: (() => void) | undefined;
    targets[0].handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: message\ndata: first\n\n');
      sendSecond = () => response.write('event: message\ndata: second\n\n');
      response.on('close', () => (upstreamClosed = true));
    };
    proxy = await startRoundRobinProxy({ targets: [targets[0].url] });
    let received = '';
    const client = httpRequest({
      host: '127.0.0.1',
      port: proxy.port,
      method: 'GET',
      path: '/mcp',
      headers: { accept: 'text/event-stream' },
      agent: false,
    });
    const responded = new Promise<IncomingMessage>((resolve) => client.on('response', resolve));
    client.end();
    const response = await responded;
    expect(response.headers['content-type']).toBe('text/event-stream');
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (received += chunk));
    // The target has not ended its response: the first event can only arrive if the proxy does not buffer.
    await waitFor(() => received.includes('data: first'), 10_000);
    expect(received).not.toContain('second');
    sendSecond!();
    await waitFor(() => received.includes('data: second'), 10_000);
    expect(upstreamClosed).toBe(false);
    response.destroy();
    await waitFor(() => upstreamClosed, 10_000);
  });

  it('answers 502 naming the target when it does not answer, and goes on with the next', async () => {
    targets = [await startTarget('alive')];
    const deadPort = await freePort();
    proxy = await startRoundRobinProxy({ targets: [targets[0].url, `http://127.0.0.1:${deadPort}`] });
    expect((await rawRequest({ port: proxy.port, method: 'GET', path: '/' })).body).toBe('alive');
    const failed = await rawRequest({
      port: proxy.port,
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(failed.status).toBe(502);
    expect(failed.json).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: `Bad Gateway: http://127.0.0.1:${deadPort} is not answering (ECONNREFUSED).`,
      },
      id: null,
    });
    expect((await rawRequest({ port: proxy.port, method: 'GET', path: '/' })).body).toBe('alive');
    expect(proxy.requestsPerTarget).toEqual([2, 1]);
    expect(proxy.badGateways).toBe(1);
    expect(proxy.errorAnswers).toBe(1);
    expect(proxy.errorSamples).toEqual([
      `502 from http://127.0.0.1:${deadPort} to POST /mcp: {"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Gateway: http://127.0.0.1:${deadPort} is not answering (ECONNREFUSED)."},"id":null}`,
    ]);
  });

  it('records the error answers targets gave, with the start of each body, and not the 2xx ones', async () => {
    targets = [await startTarget('picky')];
    targets[0].handler = (request, response) => {
      const status = request.url === '/missing' ? 404 : 200;
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(status === 404 ? `{"error":"${'x'.repeat(300)}"}` : '{}');
    };
    proxy = await startRoundRobinProxy({ targets: [targets[0].url] });
    expect((await rawRequest({ port: proxy.port, method: 'GET', path: '/fine' })).status).toBe(200);
    expect((await rawRequest({ port: proxy.port, method: 'DELETE', path: '/missing' })).status).toBe(404);
    await waitFor(() => proxy!.errorAnswers === 1, 10_000);
    expect(proxy.errorSamples).toEqual([
      `404 from ${targets[0].url} to DELETE /missing: {"error":"${'x'.repeat(190)}`,
    ]);
    expect(proxy.badGateways).toBe(0);
  });

  it('does not count a 502 for a request its client gave up on before the target answered', async () => {
    targets = [await startTarget('slow')];
    let upstreamClosed = false;
    targets[0].handler = (_request, response) => {
      // Never answers: the client leaves first, and the proxy's upstream request errors as it is torn down.
      response.on('close', () => (upstreamClosed = true));
    };
    proxy = await startRoundRobinProxy({ targets: [targets[0].url] });
    const client = httpRequest({
      host: '127.0.0.1',
      port: proxy.port,
      method: 'POST',
      path: '/mcp',
      agent: false,
    });
    client.on('error', () => undefined);
    client.end('{}');
    await waitFor(() => targets[0].seen.length === 1, 10_000);
    client.destroy();
    await waitFor(() => upstreamClosed, 10_000);
    expect(proxy.badGateways).toBe(0);
    expect(proxy.errorAnswers).toBe(0);
  });

  it('refuses targets that are not http:// loopback URLs, and an empty list', async () => {
    await expect(startRoundRobinProxy({ targets: [] })).rejects.toThrow('at least one target');
    await expect(startRoundRobinProxy({ targets: ['http://example.com:80'] })).rejects.toThrow(
      "forwards to http:// loopback targets only, got 'http://example.com:80'",
    );
  });

  describe('in front of two agent servers (stateless)', () => {
    let servers: AgentServerHandle[] = [];

    afterEach(async () => {
      await Promise.all(servers.map((server) => server.close()));
      servers = [];
    });

    it('serves an MCP client, its requests spread over both servers', async () => {
      servers = await Promise.all(
        [0, 1].map(() => startAgentServer(createFakeAgent(), { sessionMode: 'stateless' })),
      );
      proxy = await startRoundRobinProxy({ targets: servers.map((server) => server.url) });
      const client = await connectHttpClient(proxy.mcpUrl);
      for (let index = 0; index < 4; index += 1) {
        expect(await client.callTool({ name: 'add', arguments: { a: index, b: 1 } })).toMatchObject({
          structuredContent: { result: index + 1 },
        });
      }
      await client.close();
      const [first, second] = proxy.requestsPerTarget;
      expect(first).toBeGreaterThanOrEqual(2);
      expect(second).toBeGreaterThanOrEqual(2);
      expect(Math.abs(first - second)).toBeLessThanOrEqual(1);
    });
  });
});
