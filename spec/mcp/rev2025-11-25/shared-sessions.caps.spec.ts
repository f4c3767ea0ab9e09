import 'reflect-metadata';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import { createRedisBackend } from '../../../lib/redis';
import { toSessionCapKeys } from '../../../lib/redis/redis-keys';
import { MAX_STORED_CLIENT_BYTES } from '../../../lib/mcp/rev2025-11-25/shared-sessions';
import { McpEndpoint } from '../../../lib/server/http/mcp-endpoint';
import { InMemoryCallLeases } from '../../../lib/state/memory/in-memory-call-leases';
import { InMemoryEventLog } from '../../../lib/state/memory/in-memory-event-log';
import { InMemorySessionBus } from '../../../lib/state/memory/in-memory-session-bus';
import { InMemorySessionStore } from '../../../lib/state/memory/in-memory-session-store';
import type { SharedSessionState } from '../../../lib/mcp/serve/shared-session-state';
import { createFakeAgent } from '../../fixtures/serve/fake-agent';
import { initializeBody, MCP_HEADERS, rawRequest } from '../../fixtures/serve/http-helpers';
import type { RawResponse } from '../../fixtures/serve/http-helpers';
import { readJsonBody, sharedEndpointOptions } from '../../fixtures/serve/shared-endpoints';
import { describeWithRedis, startRedisServer } from '../../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../../fixtures/redis/redis-server';

/** Gives each endpoint ("process") its view of the shared state. */
type MakeShared = () => Promise<SharedSessionState & { close?: () => Promise<void> }>;

interface Limits {
  maxSessions: number;
  maxSessionsPerClient: number;
  idleTimeoutMs?: number;
}

/** Endpoints sharing one state behind one port that hands each request to the next endpoint in turn. */
async function hostRoundRobin(count: number, makeShared: MakeShared, limits: Limits) {
  const states = await Promise.all(Array.from({ length: count }, () => makeShared()));
  const errors: unknown[] = [];
  const agent = createFakeAgent();
  const endpoints = states.map(
    (shared) =>
      new McpEndpoint(
        agent,
        sharedEndpointOptions(shared, (error) => errors.push(error), limits),
      ),
  );
  let next = 0;
  const server: Server = createServer((request, response) => {
    void readJsonBody(request).then((body) => {
      if (body !== undefined) Object.assign(request, { body });
      return endpoints[next++ % endpoints.length]!.handle(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    endpoints,
    errors,
    close: async () => {
      await Promise.all(endpoints.map((endpoint) => endpoint.close()));
      await Promise.all(states.map((state) => state.close?.()));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

function inMemoryShared(idleTimeoutMs = 60_000): MakeShared {
  const state = {
    sessions: new InMemorySessionStore({ idleTimeoutMs }),
    events: new InMemoryEventLog(),
    bus: new InMemorySessionBus(),
    leases: new InMemoryCallLeases(),
  };
  return async () => state;
}

describe('McpEndpoint session caps with shared session state in memory', () => {
  behavesAtTheCaps((idleTimeoutMs) => inMemoryShared(idleTimeoutMs));
});

describeWithRedis('McpEndpoint session caps with shared session state on Redis', () => {
  let redis: RedisServerHandle;
  let raw: ReturnType<typeof createClient>;
  let prefixes = 0;
  let prefix = '';
  beforeAll(async () => {
    redis = await startRedisServer();
    raw = createClient({ url: redis.url });
    raw.on('error', () => {});
    await raw.connect();
  });
  afterAll(async () => {
    raw?.destroy();
    await redis?.dispose();
  });
  // Each test counts under a prefix of its own (the caps count every session of a prefix).
  const onRedis = (idleTimeoutMs = 60_000): MakeShared => {
    prefixes += 1;
    prefix = `${redis.keyPrefix}t${prefixes}:`;
    const keyPrefix = prefix;
    return () => createRedisBackend({ redis: redis.url, keyPrefix, idleTimeoutMs });
  };

  behavesAtTheCaps(onRedis);

  it('keeps the count in Redis beside the records: one place per session, no client address stored', async () => {
    const host = await hostRoundRobin(2, onRedis(), { maxSessions: 10, maxSessionsPerClient: 5 });
    cleanups.push(host.close);
    const opened = await openMany(host.port, '127.0.0.1', 7);
    expect(opened.filter((answer) => answer.status === 200)).toHaveLength(5);
    const keys = toSessionCapKeys(prefix);
    expect(await raw.zCard(keys.members)).toBe(5);
    expect(Object.values(await raw.hGetAll(keys.clients))).toEqual(['5']);
    const stored = JSON.stringify([await raw.hGetAll(keys.clients), await raw.hGetAll(keys.clientOf)]);
    expect(stored).not.toContain('127.0.0.1');
    expect(await raw.pTTL(keys.members)).toBeGreaterThan(0);
  });
});

/** Opens `count` sessions from `address`, one after another, and returns the answers. */
async function openMany(port: number, address: string, count: number): Promise<RawResponse[]> {
  const answers: RawResponse[] = [];
  for (let index = 0; index < count; index += 1) {
    answers.push(
      await rawRequest({ port, headers: MCP_HEADERS, body: initializeBody(), localAddress: address }),
    );
  }
  return answers;
}

function idOf(answer: RawResponse): string {
  return answer.headers['mcp-session-id'] as string;
}

async function listTools(port: number, sessionId: string): Promise<number> {
  const answer = await rawRequest({
    port,
    headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
  });
  return answer.status;
}

function behavesAtTheCaps(makeShared: (idleTimeoutMs?: number) => MakeShared): void {
  it('refuses an initialize whose capabilities and clientInfo are over what a record keeps, taking no place', async () => {
    const host = await hostRoundRobin(2, makeShared(), { maxSessions: 1, maxSessionsPerClient: 1 });
    cleanups.push(host.close);
    const large = JSON.parse(initializeBody()) as { params: { clientInfo: Record<string, unknown> } };
    large.params.clientInfo = { name: 'raw', version: '1.0.0', notes: 'x'.repeat(MAX_STORED_CLIENT_BYTES) };
    const refused = await rawRequest({ port: host.port, headers: MCP_HEADERS, body: JSON.stringify(large) });
    expect(refused.status).toBe(400);
    expect(refused.headers['mcp-session-id']).toBeUndefined();
    const error = (JSON.parse(refused.body) as { error: { code: number; message: string } }).error;
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(`over the ${MAX_STORED_CLIENT_BYTES} this server keeps for a session`);
    // The one place under maxSessions is still free.
    const [opened] = await openMany(host.port, '127.0.0.1', 1);
    expect(opened!.status).toBe(200);
  });

  it('holds maxSessions and maxSessionsPerClient over every endpoint, with the answers of one process', async () => {
    // The finding: maxSessions 10 and maxSessionsPerClient 5, two client addresses, 60 initialize requests
    // spread over two processes; each counted its own copies, so all 60 stayed open.
    const host = await hostRoundRobin(2, makeShared(), { maxSessions: 10, maxSessionsPerClient: 5 });
    cleanups.push(host.close);
    const first = await openMany(host.port, '127.0.0.1', 30);
    const second = await openMany(host.port, '127.0.0.2', 30);
    const third = await openMany(host.port, '127.0.0.3', 2);
    expect(first.map((answer) => answer.status)).toEqual([...Array(5).fill(200), ...Array(25).fill(429)]);
    // Once ten are open, maxSessions answers first (as one process checks it first).
    expect(second.map((answer) => answer.status)).toEqual([...Array(5).fill(200), ...Array(25).fill(503)]);
    expect(third.map((answer) => answer.status)).toEqual([503, 503]);
    expect(first[5]!.headers['retry-after']).toBe('5');
    expect(first[5]!.json).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message:
          'Too Many Requests: this client already has 5 sessions open; close one (DELETE) or retry later.',
      },
      id: null,
    });
    expect(third[0]!.headers['retry-after']).toBe('5');
    expect(third[0]!.json).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Service Unavailable: 10 sessions are open; retry later.' },
      id: null,
    });
    // The ten admitted sessions answer on every endpoint (each rebuilds a copy of the other's: no new place).
    for (const answer of [...first.slice(0, 5), ...second.slice(0, 5)]) {
      expect(await listTools(host.port, idOf(answer))).toBe(200);
      expect(await listTools(host.port, idOf(answer))).toBe(200);
    }
    expect(host.endpoints.map((endpoint) => endpoint.sessionCount)).toEqual([10, 10]);
    expect((await openMany(host.port, '127.0.0.3', 1))[0]!.status).toBe(503);
    expect(host.errors).toEqual([]);
  });

  it('gives a place back when a session is deleted on any endpoint, not when a copy is let go of', async () => {
    const host = await hostRoundRobin(2, makeShared(), { maxSessions: 2, maxSessionsPerClient: 2 });
    cleanups.push(host.close);
    const [one, two] = await openMany(host.port, '127.0.0.1', 2);
    for (const id of [idOf(one!), idOf(two!)]) {
      expect(await listTools(host.port, id)).toBe(200);
      expect(await listTools(host.port, id)).toBe(200);
    }
    // Every copy let go of (as an endpoint does to make room): the sessions live on, still counted.
    for (const endpoint of host.endpoints) {
      const sessions = (endpoint as unknown as { sessions: { releaseIdlest(): boolean } }).sessions;
      while (sessions.releaseIdlest());
    }
    expect(host.endpoints.map((endpoint) => endpoint.sessionCount)).toEqual([0, 0]);
    expect((await openMany(host.port, '127.0.0.2', 1))[0]!.status).toBe(503);
    // Rebuilt copies take no new place either.
    expect(await listTools(host.port, idOf(one!))).toBe(200);
    expect(await listTools(host.port, idOf(one!))).toBe(200);
    expect((await openMany(host.port, '127.0.0.2', 1))[0]!.status).toBe(503);
    const deleted = await rawRequest({
      port: host.port,
      method: 'DELETE',
      headers: { ...MCP_HEADERS, 'mcp-session-id': idOf(one!) },
    });
    expect(deleted.status).toBe(200);
    const [reopened, refused] = await openMany(host.port, '127.0.0.2', 2);
    expect([reopened!.status, refused!.status]).toEqual([200, 503]);
    expect(host.errors).toEqual([]);
  });

  it('gives the places of expired sessions back', async () => {
    const idleTimeoutMs = 1_000;
    const host = await hostRoundRobin(2, makeShared(idleTimeoutMs), {
      maxSessions: 2,
      maxSessionsPerClient: 2,
      idleTimeoutMs,
    });
    cleanups.push(host.close);
    expect((await openMany(host.port, '127.0.0.1', 3)).map((answer) => answer.status)).toEqual([
      200, 200, 503,
    ]);
    const deadline = Date.now() + 15_000;
    let reopened: RawResponse[] = [];
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      reopened = await openMany(host.port, '127.0.0.1', 1);
      if (reopened[0]!.status === 200) break;
    }
    expect(reopened[0]!.status).toBe(200);
    // One place was taken again, one is free: nothing of the expired sessions is still counted.
    expect((await openMany(host.port, '127.0.0.1', 2)).map((answer) => answer.status)).toEqual([200, 503]);
  }, 20_000);
}
