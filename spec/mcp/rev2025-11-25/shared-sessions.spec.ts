import 'reflect-metadata';
import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { SessionStoreUnavailableError } from '../../../lib/errors/session-store-unavailable-error';
import { createRedisBackend } from '../../../lib/redis';
import { McpEndpoint } from '../../../lib/server/http/mcp-endpoint';
import { InMemoryCallLeases } from '../../../lib/state/memory/in-memory-call-leases';
import { InMemoryEventLog } from '../../../lib/state/memory/in-memory-event-log';
import { InMemorySessionBus } from '../../../lib/state/memory/in-memory-session-bus';
import { InMemorySessionStore } from '../../../lib/state/memory/in-memory-session-store';
import type { SessionStore } from '../../../lib/state/session-store';
import type { SharedSessionState } from '../../../lib/mcp/serve/shared-session-state';
import { NativeTool } from '../../../lib/tools/native-tool';
import {
  agentWithAskAndShout,
  readJsonBody,
  sharedEndpointOptions,
} from '../../fixtures/serve/shared-endpoints';
import { describeWithRedis, startRedisServer } from '../../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../../fixtures/redis/redis-server';
import {
  callBody,
  initializeBody,
  MCP_HEADERS,
  openRawSession,
  rawRequest,
  waitFor,
} from '../../fixtures/serve/http-helpers';

/** The fixture agent plus tools that ask the client and log, and two that let go of their stream. */
function agentWithInteractions() {
  const agent = agentWithAskAndShout();
  (agent.tools as Map<string, NativeTool>).set(
    'poll',
    new NativeTool({
      name: 'poll',
      description: 'Let go of the stream, then finish later',
      inputSchema: {},
      func: async (_args, context) => {
        context.closeSSEStream();
        await new Promise((resolve) => setTimeout(resolve, 300));
        await context.reportProgress(1, 1, 'almost');
        return 'finished';
      },
    }),
  );
  (agent.tools as Map<string, NativeTool>).set(
    'hang',
    new NativeTool({
      name: 'hang',
      description: 'Let go of the stream, report, then never finish',
      inputSchema: {},
      func: async (_args, context) => {
        context.closeSSEStream();
        await context.reportProgress(1, 2, 'started');
        await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
        return 'never';
      },
    }),
  );
  return agent;
}

/**
 * Several endpoints (as if in several processes) sharing one state, behind one port that hands each request
 * to the next endpoint in turn, ignoring Mcp-Session-Id: no request of a session is pinned anywhere.
 */
async function hostRoundRobin(count: number, makeShared: MakeShared, route?: Route, maxSessions = 100) {
  const states = await Promise.all(Array.from({ length: count }, () => makeShared()));
  const agent = agentWithInteractions();
  const errors: unknown[] = [];
  const endpoints = states.map(
    (shared) =>
      new McpEndpoint(
        agent,
        sharedEndpointOptions(shared, (error) => errors.push(error), { maxSessions }),
      ),
  );
  const served: number[] = endpoints.map(() => 0);
  let next = 0;
  const server: Server = createServer((request, response) => {
    void readJsonBody(request).then((body) => {
      // The body read here is handed over as a framework's parser would (request.body).
      if (body !== undefined) Object.assign(request, { body });
      const index = route?.(request, body) ?? next++ % endpoints.length;
      served[index] += 1;
      return endpoints[index]!.handle(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    agent,
    endpoints,
    errors,
    served,
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await Promise.all(endpoints.map((endpoint) => endpoint.close()));
      await Promise.all(states.map((state) => (state as { close?: () => Promise<void> }).close?.()));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Picks the endpoint of a request from its headers and parsed body (round robin when undefined). */
type Route = (request: IncomingMessage, body: unknown) => number | undefined;

/** True for a client's answer to a server request (a JSON-RPC response). */
function isAnswer(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'id' in body && !('method' in body);
}

function methodOf(body: unknown): unknown {
  return typeof body === 'object' && body !== null ? (body as { method?: unknown }).method : undefined;
}

/** Gives each endpoint (process) its view of the shared state: one object in memory, a connection on Redis. */
type MakeShared = () => Promise<SharedSessionState>;

/** One in-memory state every endpoint of a host shares (as one process would hold it). */
function inMemoryShared(
  sessions: SessionStore = new InMemorySessionStore({ idleTimeoutMs: 60_000 }),
): MakeShared {
  const state = {
    sessions,
    events: new InMemoryEventLog(),
    bus: new InMemorySessionBus(),
    leases: new InMemoryCallLeases(),
  };
  return async () => state;
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function connect(url: string, capabilities: Record<string, unknown> = {}) {
  const client = new Client({ name: 'rr-client', version: '1.0.0' }, { capabilities });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  cleanups.push(() => client.close());
  return client;
}

describe('McpEndpoint with shared session state in memory', () => {
  behavesAcrossEndpoints(() => inMemoryShared());

  it('answers 503 with -32603 "session store unavailable" while the store is down, then recovers', async () => {
    const store = new InMemorySessionStore({ idleTimeoutMs: 60_000 });
    let down = false;
    const flaky: SessionStore = {
      idleTimeoutMs: store.idleTimeoutMs,
      create: (record) => (down ? Promise.reject(unavailable()) : store.create(record)),
      get: (key) => (down ? Promise.reject(unavailable()) : store.get(key)),
      touch: (key) => (down ? Promise.reject(unavailable()) : store.touch(key)),
      update: (key, changes) => (down ? Promise.reject(unavailable()) : store.update(key, changes)),
      delete: (key) => (down ? Promise.reject(unavailable()) : store.delete(key)),
    };
    const host = await hostRoundRobin(2, inMemoryShared(flaky));
    cleanups.push(host.close);
    const client = await connect(host.url);
    down = true;
    const refused = await rawRequest({ port: host.port, headers: MCP_HEADERS, body: initializeBody() });
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32603, message: 'session store unavailable: connection refused' },
      id: null,
    });
    await expect(client.listTools()).rejects.toThrow(/session store unavailable/);
    down = false;
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });
});

describeWithRedis(
  'McpEndpoint with shared session state on Redis',
  () => {
    let redis: RedisServerHandle;
    beforeAll(async () => {
      redis = await startRedisServer();
    });
    afterAll(async () => {
      await redis?.dispose();
    });
    const onRedis: MakeShared = () => createRedisBackend({ redis: redis.url, keyPrefix: redis.keyPrefix });

    behavesAcrossEndpoints(() => onRedis);

    it('answers 503 "session store unavailable" while Redis is down and recovers when it is back', async () => {
      const host = await hostRoundRobin(2, onRedis);
      cleanups.push(host.close);
      const client = await connect(host.url);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await redis.stop();
      try {
        const refused = await rawRequest({ port: host.port, headers: MCP_HEADERS, body: initializeBody() });
        expect(refused.status).toBe(503);
        expect(JSON.parse(refused.body).error.code).toBe(-32603);
        expect(JSON.parse(refused.body).error.message).toMatch(/^session store unavailable: /);
        await expect(client.listTools()).rejects.toThrow(/session store unavailable/);
      } finally {
        await redis.restart();
      }
      // Redis restarted empty (nothing persisted): the old session is gone, a new one works on every endpoint.
      for (let attempt = 0; ; attempt += 1) {
        const opened = await rawRequest({ port: host.port, headers: MCP_HEADERS, body: initializeBody() });
        if (opened.status === 200) break;
        if (attempt === 100) throw new Error(`still ${opened.status} after Redis came back: ${opened.body}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const fresh = await connect(host.url);
      for (let index = 0; index < 4; index += 1)
        expect((await fresh.listTools()).tools.length).toBeGreaterThan(0);
    }, 30_000);
  },
  { ownServer: true },
);

function behavesAcrossEndpoints(makeShared: () => MakeShared): void {
  it('serves every request of a session on whichever endpoint it lands', async () => {
    const host = await hostRoundRobin(3, makeShared());
    cleanups.push(host.close);
    const client = await connect(host.url);
    for (let index = 0; index < 6; index += 1) {
      const result = await client.callTool({ name: 'add', arguments: { a: index, b: 1 } });
      expect(result.structuredContent ?? result.content).toBeDefined();
      expect(JSON.stringify(result.content)).toContain(String(index + 1));
    }
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('ask');
    expect(host.served.every((count) => count >= 3)).toBe(true);
    expect(host.errors).toEqual([]);
  });

  it('lets go of idle copies of sessions, and rebuilds them when the session comes back', async () => {
    // Every copy let go of (as an endpoint does at its cap of copies; the session lives on in the store, and
    // still counts there: see shared-sessions.caps.spec.ts) is rebuilt from its record on the next request.
    const host = await hostRoundRobin(2, makeShared());
    cleanups.push(host.close);
    const add = async (sessionId: string, a: number) => {
      const answer = await rawRequest({
        port: host.port,
        headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId },
        body: callBody('add', { a, b: 1 }),
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toContain(`"text":"${a + 1}"`);
    };
    const sessions = [
      await openRawSession(host.port),
      await openRawSession(host.port),
      await openRawSession(host.port),
    ];
    for (let round = 0; round < 2; round += 1) {
      for (const [index, sessionId] of sessions.entries()) await add(sessionId, round * 10 + index);
      for (const endpoint of host.endpoints) {
        const copies = (endpoint as unknown as { sessions: { releaseIdlest(): boolean } }).sessions;
        while (copies.releaseIdlest());
      }
      expect(host.endpoints.map((endpoint) => endpoint.sessionCount)).toEqual([0, 0]);
    }
    expect(host.errors).toEqual([]);
  });

  it('routes the answer to an elicitation to the endpoint that asked', async () => {
    // Everything on endpoint 0 but the client's answers, which land on endpoint 1.
    const host = await hostRoundRobin(2, makeShared(), (_request, body) => (isAnswer(body) ? 1 : 0));
    cleanups.push(host.close);
    const client = await connect(host.url, { elicitation: {} });
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { name: 'Ada' },
    }));
    const result = await client.callTool({ name: 'ask', arguments: {} });
    expect(JSON.stringify(result.content)).toContain('accept:Ada');
    expect(host.served[1]).toBe(1);
  });

  it('applies a log level chosen on one endpoint to calls on the others', async () => {
    const host = await hostRoundRobin(2, makeShared());
    cleanups.push(host.close);
    const client = await connect(host.url);
    const logged: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logged.push(notification.params.data);
    });
    await client.setLoggingLevel('error');
    await client.callTool({ name: 'shout', arguments: {} });
    await client.callTool({ name: 'shout', arguments: {} });
    expect(logged).toEqual(['loud', 'loud']);
  });

  it('cancels a call running on one endpoint from a notification that lands on another', async () => {
    const host = await hostRoundRobin(2, makeShared(), (_request, body) =>
      methodOf(body) === 'notifications/cancelled' ? 1 : 0,
    );
    cleanups.push(host.close);
    const client = await connect(host.url);
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: {} }, undefined, { signal: controller.signal });
    await waitFor(() => host.agent.log.executed.includes('slow'));
    controller.abort('changed my mind');
    await expect(call).rejects.toThrow();
    await waitFor(() => host.agent.log.aborted.includes('slow'), 2_000);
    expect(host.served[1]).toBe(1);
  });

  it('resumes a call on another endpoint and gets its result there', async () => {
    // Resumes (GET with Last-Event-ID) land on endpoint 1, everything else on endpoint 0.
    const host = await hostRoundRobin(2, makeShared(), (request) =>
      request.headers['last-event-id'] ? 1 : 0,
    );
    cleanups.push(host.close);
    const client = await connect(host.url);
    const progress: string[] = [];
    const result = await client.callTool({ name: 'poll', arguments: {} }, undefined, {
      onprogress: (update) => progress.push(String(update.message)),
    });
    expect(JSON.stringify(result.content)).toContain('finished');
    expect(progress).toEqual(['almost']);
    expect(host.served[1]).toBe(1);
    expect(host.errors).toEqual([]);
  });

  it('delivers a notification sent on one endpoint to the GET stream held by another', async () => {
    const host = await hostRoundRobin(2, makeShared());
    cleanups.push(host.close);
    const opened = await rawRequest({ port: host.port, headers: MCP_HEADERS, body: initializeBody() });
    const id = opened.headers['mcp-session-id'] as string;
    // The initialize landed on endpoint 0; the GET lands on endpoint 1.
    const received: string[] = [];
    const stream = await openSse(host.port, id);
    cleanups.push(async () => stream.close());
    stream.onData((text) => received.push(text));
    const origin = (
      host.endpoints[0] as unknown as { sessions: { get(id: string): { server: McpSdkServer } } }
    ).sessions.get(id);
    await origin.server.sendLoggingMessage({ level: 'info', data: 'from endpoint 0' });
    await waitFor(() => received.join('').includes('from endpoint 0'), 3_000);
    expect(received.join('')).toMatch(/id: _GET_stream_\d+/);
  });

  it('answers a call whose endpoint died with an error on the endpoint the client resumes on', async () => {
    // Endpoint 0 "dies": its heartbeat stops (its process would be gone); it never answers the call.
    const base = makeShared();
    let dead = false;
    let first = true;
    const mortal: MakeShared = async () => {
      // Decided before any await: on Redis the backends connect in any order, and endpoint 0 must be the mortal.
      const isFirst = first;
      first = false;
      const state = await base();
      if (!isFirst) return state;
      const leases = state.leases!;
      return {
        ...state,
        leases: {
          heartbeat: (id, ttl) => (dead ? Promise.resolve() : leases.heartbeat(id, ttl)),
          isAlive: (id) => leases.isAlive(id),
          claimStream: (key, stream, owner, ttl) => leases.claimStream(key, stream, owner, ttl),
          streamOwner: (key, stream) => leases.streamOwner(key, stream),
        },
      };
    };
    const host = await hostRoundRobin(2, mortal, (request) => (request.headers['last-event-id'] ? 1 : 0));
    cleanups.push(host.close);
    const client = await connect(host.url);
    const progress: string[] = [];
    const call = client.callTool({ name: 'hang', arguments: {} }, undefined, {
      onprogress: (update) => progress.push(String(update.message)),
      timeout: 20_000,
    });
    await waitFor(() => host.agent.log.executed.includes('hang'));
    dead = true;
    await expect(call).rejects.toThrow(/instance running this request was lost/);
    // What was stored before the death arrived first.
    expect(progress).toEqual(['started']);
    expect(host.served[1]).toBeGreaterThanOrEqual(1);
  }, 20_000);

  it('answers 404 on every endpoint once the session is deleted', async () => {
    const host = await hostRoundRobin(3, makeShared());
    cleanups.push(host.close);
    const opened = await rawRequest({ port: host.port, headers: MCP_HEADERS, body: initializeBody() });
    const id = opened.headers['mcp-session-id'] as string;
    const headers = { ...MCP_HEADERS, 'mcp-session-id': id };
    for (let index = 0; index < 3; index += 1) {
      const listed = await rawRequest({
        port: host.port,
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 10 + index, method: 'tools/list' }),
      });
      expect(listed.status).toBe(200);
    }
    const deleted = await rawRequest({ port: host.port, method: 'DELETE', headers });
    expect(deleted.status).toBe(200);
    for (let index = 0; index < 3; index += 1) {
      const after = await rawRequest({
        port: host.port,
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 20 + index, method: 'tools/list' }),
      });
      expect(after.status).toBe(404);
      expect(after.body).toContain('Session not found');
    }
  });

  it('refuses a session id presented with another bearer token, on every endpoint', async () => {
    const host = await hostRoundRobin(2, makeShared());
    cleanups.push(host.close);
    const opened = await rawRequest({
      port: host.port,
      headers: { ...MCP_HEADERS, authorization: 'Bearer alice-token' },
      body: initializeBody(),
    });
    const id = opened.headers['mcp-session-id'] as string;
    for (let index = 0; index < 2; index += 1) {
      const stolen = await rawRequest({
        port: host.port,
        headers: { ...MCP_HEADERS, authorization: 'Bearer mallory-token', 'mcp-session-id': id },
        body: JSON.stringify({ jsonrpc: '2.0', id: 5 + index, method: 'tools/list' }),
      });
      expect(stolen.status).toBe(404);
    }
    const own = await rawRequest({
      port: host.port,
      headers: { ...MCP_HEADERS, authorization: 'Bearer alice-token', 'mcp-session-id': id },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(own.status).toBe(200);
  });
}

type McpSdkServer = { sendLoggingMessage(params: { level: 'info'; data: string }): Promise<void> };

/** Opens a session's GET stream with raw HTTP and hands over what arrives. */
async function openSse(port: number, sessionId: string) {
  const { request } = await import('node:http');
  return new Promise<{ onData(listener: (text: string) => void): void; close(): void }>((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'GET',
        headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId },
      },
      (incoming) => {
        if (incoming.statusCode !== 200) {
          reject(new Error(`GET answered ${String(incoming.statusCode)}`));
          return;
        }
        incoming.setEncoding('utf8');
        resolve({
          onData: (listener) => incoming.on('data', listener),
          close: () => outgoing.destroy(),
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

function unavailable(): SessionStoreUnavailableError {
  return new SessionStoreUnavailableError({ reason: 'connection refused' });
}
