import 'reflect-metadata';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createRedisBackend } from '../../../lib/redis';
import { MAX_CANCEL_REASON_LENGTH } from '../../../lib/mcp/rev2025-11-25/bound-link-message';
import { McpEndpoint } from '../../../lib/server/http/mcp-endpoint';
import { InMemoryCallLeases } from '../../../lib/state/memory/in-memory-call-leases';
import { InMemoryEventLog } from '../../../lib/state/memory/in-memory-event-log';
import { InMemorySessionBus } from '../../../lib/state/memory/in-memory-session-bus';
import { InMemorySessionStore } from '../../../lib/state/memory/in-memory-session-store';
import type { SharedSessionState } from '../../../lib/mcp/serve/shared-session-state';
import { describeWithRedis, startRedisServer } from '../../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../../fixtures/redis/redis-server';
import { MCP_HEADERS, rawRequest, waitFor } from '../../fixtures/serve/http-helpers';
import {
  agentWithAskAndShout,
  readJsonBody,
  sharedEndpointOptions,
} from '../../fixtures/serve/shared-endpoints';

/** The bus bound of these specs: 64 KiB per session. */
const BUS_MAX_BYTES = 64 * 1024;

/** What a request is, for routing: a client's answer, or a JSON-RPC method. */
function kindOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  if ('id' in body && !('method' in body)) return 'answer';
  const method = (body as { method?: unknown }).method;
  return typeof method === 'string' ? method : undefined;
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/**
 * Two endpoints (as two processes) sharing a state whose bus takes 64 KiB per session: `toSecond` picks the
 * requests endpoint 1 gets (the rest go to endpoint 0, which runs the calls).
 */
async function hostTwo(makeShared: () => Promise<SharedSessionState>, toSecond: (kind?: string) => boolean) {
  const states = [await makeShared(), await makeShared()];
  const agent = agentWithAskAndShout();
  const errors: unknown[] = [];
  const endpoints = states.map(
    (shared) =>
      new McpEndpoint(
        agent,
        sharedEndpointOptions(shared, (error) => errors.push(error)),
      ),
  );
  const served = [0, 0];
  const server: Server = createServer((request, response) => {
    void readJsonBody(request).then((body) => {
      if (body !== undefined) Object.assign(request, { body });
      const index = toSecond(kindOf(body)) ? 1 : 0;
      served[index] += 1;
      return endpoints[index]!.handle(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    await Promise.all(endpoints.map((endpoint) => endpoint.close()));
    await Promise.all(states.map((state) => (state as { close?: () => Promise<void> }).close?.()));
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { agent, errors, served, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` };
}

async function connect(url: string, capabilities: Record<string, unknown> = {}) {
  const client = new Client({ name: 'bounds-client', version: '1.0.0' }, { capabilities });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  cleanups.push(() => client.close());
  return client;
}

function behavesWithinTheBusBound(makeShared: () => () => Promise<SharedSessionState>): void {
  it("fails the asking call at once with the reason when the client's answer is too big for the bus", async () => {
    const host = await hostTwo(makeShared(), (kind) => kind === 'answer');
    const client = await connect(host.url, { elicitation: {} });
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { name: 'x'.repeat(100_000) },
    }));
    // The interaction timeout is 10 s: a lost answer would fail the call only then, past this bound.
    const result = await client.callTool({ name: 'ask', arguments: {} }, undefined, { timeout: 5_000 });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(
      /The client's answer to this request was too big to pass to the server process that asked for it \(\d+ bytes; the session bus takes at most 65536\), so it was dropped; answer with less, or raise the server's maxBodyBytes\./,
    );
    expect(host.served[1]).toBe(1);
  });

  it('cancels a call on another process with a 500 kB reason, cut to 1,000 characters on the bus', async () => {
    const host = await hostTwo(makeShared(), (kind) => kind === 'notifications/cancelled');
    const client = await connect(host.url);
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: {} }, undefined, { signal: controller.signal });
    await waitFor(() => host.agent.log.executed.includes('slow'));
    controller.abort('y'.repeat(500_000));
    await expect(call).rejects.toThrow();
    await waitFor(() => host.agent.log.aborted.includes('slow'), 2_000);
    expect(host.served[1]).toBe(1);
    const [context] = host.agent.log.contexts;
    expect(context?.cancelReason).toBe('y'.repeat(MAX_CANCEL_REASON_LENGTH));
    expect(host.errors).toEqual([]);
  });

  it('passes a cancel whose request id is no id (a 70 kB string) to no other process, and the session goes on', async () => {
    const host = await hostTwo(makeShared(), () => false);
    const client = await connect(host.url);
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const port = Number(new URL(host.url).port);
    const cancel = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'z'.repeat(70_000) },
    };
    const answered = await rawRequest({
      port,
      headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId },
      body: JSON.stringify(cancel),
    });
    expect(answered.status).toBe(202);
    // It names no request (ids are short), so it never reaches the bus: nothing refused, nothing charged.
    expect(host.errors).toEqual([]);
    // The session goes on.
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });
}

describe('Shared sessions within the bus bound, in memory', () => {
  behavesWithinTheBusBound(() => {
    const state: SharedSessionState = {
      sessions: new InMemorySessionStore({ idleTimeoutMs: 60_000 }),
      events: new InMemoryEventLog(),
      bus: new InMemorySessionBus({ maxBytes: BUS_MAX_BYTES }),
      leases: new InMemoryCallLeases(),
    };
    return async () => state;
  });
});

describeWithRedis('Shared sessions within the bus bound, on Redis', () => {
  let redis: RedisServerHandle;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.dispose();
  });
  behavesWithinTheBusBound(
    () => () =>
      createRedisBackend({ redis: redis.url, keyPrefix: redis.keyPrefix, bus: { maxBytes: BUS_MAX_BYTES } }),
  );
});
