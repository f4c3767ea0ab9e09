import 'reflect-metadata';
import { request as httpRequest } from 'node:http';
import type { ClientRequest } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import type { AgentServerHandle, AgentServerOptions } from '../../lib/agents/agent-server-options';
import { TOO_MANY_CALLS_ERROR_CODE } from '../../lib/mcp/rev2025-11-25/create-mcp-server';
import { startAgentServer } from '../../lib/server/start-agent-server';
import { createFakeAgent } from '../fixtures/serve/fake-agent';
import {
  callBody,
  initializeBody,
  MCP_HEADERS,
  openRawSession,
  rawRequest,
  waitFor,
} from '../fixtures/serve/http-helpers';

// Real servers on 127.0.0.1 with small limits; every assertion is "closed (or refused) eventually", never
// "within N ms".
const EVENTUALLY = 20_000;
jest.setTimeout(60_000);

const servers: AgentServerHandle[] = [];
const sockets: Socket[] = [];

async function start(options: AgentServerOptions) {
  const agent = createFakeAgent();
  const handle = await startAgentServer(agent, options);
  servers.push(handle);
  return { agent, handle };
}

/** A raw TCP client that records what it receives and when the server closes it. */
function rawSocket(port: number, localAddress?: string) {
  const socket = connect({ host: '127.0.0.1', port, localAddress });
  sockets.push(socket);
  const state = { received: '', closed: false, connected: false };
  socket.on('connect', () => (state.connected = true));
  socket.on('data', (chunk: Buffer) => (state.received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (state.closed = true));
  return { socket, state };
}

/** Writes `text` one byte every 20 ms until the socket closes. */
function trickle(socket: Socket, text: string): void {
  let index = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || !socket.writable) return clearInterval(timer);
    socket.write(text[index % text.length]);
    index += 1;
  }, 20);
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((handle) => handle.close()));
});

describe('slow and idle HTTP clients', () => {
  it('cuts off a slow-loris client sending its headers byte by byte (408)', async () => {
    const { handle } = await start({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const { socket, state } = rawSocket(handle.port);
    socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${handle.port}\r\n`);
    trickle(socket, 'X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n');
    await waitFor(() => state.closed, EVENTUALLY);
    expect(state.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('cuts off a client that sends its body byte by byte (408)', async () => {
    const { handle } = await start({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const { socket, state } = rawSocket(handle.port);
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${handle.port}\r\nContent-Type: application/json\r\n` +
        'Accept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n',
    );
    trickle(socket, ' ');
    await waitFor(() => state.closed, EVENTUALLY);
    expect(state.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection that never sends a byte', async () => {
    const { handle } = await start({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const { state } = rawSocket(handle.port);
    await waitFor(() => state.closed, EVENTUALLY);
  });

  it('closes an idle keep-alive connection after its response', async () => {
    const { handle } = await start({ keepAliveTimeoutMs: 200 });
    const { socket, state } = rawSocket(handle.port);
    socket.write(`GET /.well-known/agent.json HTTP/1.1\r\nHost: 127.0.0.1:${handle.port}\r\n\r\n`);
    await waitFor(() => state.received.includes('fixture-agent'), EVENTUALLY);
    expect(state.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(state.received.toLowerCase()).toContain('keep-alive');
    await waitFor(() => state.closed, EVENTUALLY);
  });

  it('caps open connections with maxConnections, and accepts again once one closes', async () => {
    const { handle } = await start({ maxConnections: 2 });
    const first = rawSocket(handle.port);
    const second = rawSocket(handle.port);
    await waitFor(() => first.state.connected && second.state.connected, EVENTUALLY);
    // Both are counted once the server has accepted them: a card request on each proves it.
    for (const { socket } of [first, second])
      socket.write(`GET /.well-known/agent.json HTTP/1.1\r\nHost: 127.0.0.1:${handle.port}\r\n\r\n`);
    await waitFor(
      () => [first, second].every(({ state }) => state.received.includes('fixture-agent')),
      EVENTUALLY,
    );
    const third = rawSocket(handle.port);
    await waitFor(() => third.state.closed, EVENTUALLY);
    expect(third.state.received).toBe('');
    first.socket.destroy();
    await waitFor(() => first.state.closed, EVENTUALLY);
    let card = 0;
    await waitFor(() => {
      if (card === 0) {
        card = -1;
        rawRequest({ port: handle.port, method: 'GET', path: '/.well-known/agent.json' }).then(
          (response) => (card = response.status),
          () => (card = 0),
        );
      }
      return card === 200;
    }, EVENTUALLY);
  });
});

describe('sessions', () => {
  it('expires a session that only holds a GET stream open, ending the stream', async () => {
    const { handle } = await start({ sessionIdleTimeoutMs: 200 });
    const id = await openRawSession(handle.port);
    const stream = { status: 0, ended: false };
    const get: ClientRequest = httpRequest(
      {
        host: '127.0.0.1',
        port: handle.port,
        path: '/mcp',
        method: 'GET',
        agent: false,
        headers: { ...MCP_HEADERS, accept: 'text/event-stream', 'mcp-session-id': id },
      },
      (response) => {
        stream.status = response.statusCode ?? 0;
        response.resume();
        response.on('close', () => (stream.ended = true));
      },
    );
    get.on('error', () => (stream.ended = true));
    get.end();
    await waitFor(() => stream.status === 200, EVENTUALLY);
    await waitFor(() => stream.ended && handle.sessionCount === 0, EVENTUALLY);
    const after = await rawRequest({
      port: handle.port,
      headers: { ...MCP_HEADERS, 'mcp-session-id': id },
      body: callBody('echo', { text: 'x' }),
    });
    expect(after.status).toBe(404);
  });

  it('caps the sessions of one client address (429), not those of another address', async () => {
    const { handle } = await start({ maxSessionsPerClient: 2, maxSessions: 10 });
    const ids = [await openRawSession(handle.port), await openRawSession(handle.port)];
    const refused = await rawRequest({ port: handle.port, headers: MCP_HEADERS, body: initializeBody() });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json.error).toEqual({
      code: -32000,
      message:
        'Too Many Requests: this client already has 2 sessions open; close one (DELETE) or retry later.',
    });
    expect(handle.sessionCount).toBe(2);
    // Another loopback address is another client.
    const other = await initializeFrom(handle.port, '127.0.0.2');
    expect(other).toBe(200);
    // Closing a session frees a slot for its client.
    const removed = await rawRequest({
      port: handle.port,
      method: 'DELETE',
      headers: { ...MCP_HEADERS, 'mcp-session-id': ids[0] },
    });
    expect(removed.status).toBe(200);
    await waitFor(() => handle.sessionCount === 2, EVENTUALLY);
    await openRawSession(handle.port);
    expect(handle.sessionCount).toBe(3);
  });
});

describe('stateless mode', () => {
  it('caps concurrent calls over all requests with maxConcurrentStatelessCalls', async () => {
    const { handle, agent } = await start({ sessionMode: 'stateless', maxConcurrentStatelessCalls: 2 });
    const pending = [holdCall(handle.port, 11), holdCall(handle.port, 12)];
    await waitFor(() => agent.log.executed.filter((name) => name === 'slow').length === 2, EVENTUALLY);
    const refused = await rawRequest({
      port: handle.port,
      headers: MCP_HEADERS,
      body: callBody('echo', { text: 'x' }, 13),
    });
    expect(refused.json.error).toEqual({
      code: TOO_MANY_CALLS_ERROR_CODE,
      message:
        'MCP error -32029: Too many concurrent tool calls on this server (limit 2); wait for one to finish and retry.',
    });
    // A client that goes away ends its call and frees its slot.
    for (const outgoing of pending) outgoing.destroy();
    await waitFor(() => agent.log.aborted.length === 2, EVENTUALLY);
    const accepted = await rawRequest({
      port: handle.port,
      headers: MCP_HEADERS,
      body: callBody('echo', { text: 'again' }, 14),
    });
    expect(accepted.json.result).toEqual({ content: [{ type: 'text', text: 'again' }] });
  });
});

/** Starts a stateless `slow` call and leaves it running. */
function holdCall(port: number, id: number): ClientRequest {
  const outgoing = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/mcp',
    agent: false,
    headers: { ...MCP_HEADERS, host: `127.0.0.1:${port}` },
  });
  outgoing.on('error', () => undefined);
  outgoing.on('response', (response) => response.resume());
  outgoing.end(callBody('slow', {}, id));
  return outgoing;
}

/** Sends initialize from another local address and returns the status. */
function initializeFrom(port: number, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = initializeBody();
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/mcp',
        agent: false,
        localAddress,
        headers: {
          ...MCP_HEADERS,
          host: `127.0.0.1:${port}`,
          'content-length': String(Buffer.byteLength(body)),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
