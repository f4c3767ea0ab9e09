import 'reflect-metadata';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createClient } from 'redis';
import { createRedisBackend } from '../../../lib/redis';
import type { RedisBackend } from '../../../lib/redis';
import { McpEndpoint } from '../../../lib/server/http/mcp-endpoint';
import { describeWithRedis, startRedisServer } from '../../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../../fixtures/redis/redis-server';
import { waitFor } from '../../fixtures/serve/http-helpers';
import {
  agentWithAskAndShout,
  readJsonBody,
  sharedEndpointOptions,
} from '../../fixtures/serve/shared-endpoints';

/** How long the subscriber connections stay down: longer than the bus's poll interval (1 s). */
const OUTAGE_MS = 2_500;

/** What a request is, for routing: a client's answer, or a JSON-RPC method. */
function kindOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  if ('id' in body && !('method' in body)) return 'answer';
  const method = (body as { method?: unknown }).method;
  return typeof method === 'string' ? method : undefined;
}

describeWithRedis(
  'McpEndpoint on Redis while a process cannot hear the bus',
  () => {
    let redis: RedisServerHandle;
    let admin: ReturnType<typeof createClient>;
    const cleanups: (() => Promise<unknown>)[] = [];

    beforeAll(async () => {
      redis = await startRedisServer();
      admin = createClient({ url: redis.url });
      admin.on('error', () => {});
      await admin.connect();
    });
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
    });
    afterAll(async () => {
      admin?.destroy();
      await redis?.dispose();
    });

    /**
     * Two endpoints (as two processes) on Redis behind one port: `toSecond` picks the requests endpoint 1
     * gets (the rest go to endpoint 0, which runs the calls). A lost bus message makes the call wait for
     * its 20 s interaction timeout, past the test's.
     */
    async function hostTwo(toSecond: (kind: string | undefined) => boolean) {
      const states: RedisBackend[] = [];
      for (let index = 0; index < 2; index += 1)
        states.push(await createRedisBackend({ redis: redis.url, keyPrefix: redis.keyPrefix }));
      const agent = agentWithAskAndShout();
      const errors: unknown[] = [];
      const endpoints = states.map(
        (shared) =>
          new McpEndpoint(
            agent,
            sharedEndpointOptions(shared, (error) => errors.push(error), { interactionTimeoutMs: 20_000 }),
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
        await Promise.all(states.map((state) => state.close()));
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      });
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      return { agent, errors, served, url };
    }

    async function connect(url: string, capabilities: Record<string, unknown> = {}) {
      const client = new Client({ name: 'outage-client', version: '1.0.0' }, { capabilities });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      cleanups.push(() => client.close());
      return client;
    }

    /**
     * Drops every subscribed connection (a network blip) and keeps them from reconnecting for `OUTAGE_MS`
     * (no connection slot is free); the command connections, already open, go on working.
     */
    async function dropSubscribers(): Promise<void> {
      const info = String(await admin.sendCommand(['INFO', 'clients']));
      const connected = Number(/connected_clients:(\d+)/.exec(info)?.[1]);
      const subscribed = String(await admin.sendCommand(['CLIENT', 'LIST', 'TYPE', 'pubsub']))
        .trim()
        .split('\n');
      // Set before the kill: node-redis tries to reconnect at once.
      await admin.sendCommand(['CONFIG', 'SET', 'maxclients', String(connected - subscribed.length)]);
      const killed = Number(await admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub']));
      // Endpoint 0's subscriber at least (endpoint 1 subscribes only once it serves the session).
      expect(killed).toBeGreaterThanOrEqual(1);
      const reopen = setTimeout(() => void allowConnections(), OUTAGE_MS);
      cleanups.push(async () => {
        clearTimeout(reopen);
        await allowConnections();
      });
    }

    const allowConnections = () => admin.sendCommand(['CONFIG', 'SET', 'maxclients', '10000']);

    it('gets an answer posted to another process to the asking tool while its subscriber reconnects', async () => {
      const host = await hostTwo((kind) => kind === 'answer');
      const client = await connect(host.url, { elicitation: {} });
      client.setRequestHandler(ElicitRequestSchema, async () => {
        await dropSubscribers();
        return { action: 'accept', content: { name: 'Ada' } };
      });
      const started = Date.now();
      const result = await client.callTool({ name: 'ask', arguments: {} }, undefined, { timeout: 8_000 });
      expect(JSON.stringify(result.content)).toContain('accept:Ada');
      // Read from the bus log by the poll on the command connection, before the subscriber is back.
      expect(Date.now() - started).toBeLessThan(OUTAGE_MS);
      expect(host.served[1]).toBe(1);
    }, 15_000);

    it('cancels a call from a notification posted to another process while the runner cannot hear the bus', async () => {
      const host = await hostTwo((kind) => kind === 'notifications/cancelled');
      const client = await connect(host.url);
      const controller = new AbortController();
      const call = client.callTool({ name: 'slow', arguments: {} }, undefined, { signal: controller.signal });
      await waitFor(() => host.agent.log.executed.includes('slow'));
      await dropSubscribers();
      controller.abort('changed my mind');
      await expect(call).rejects.toThrow();
      await waitFor(() => host.agent.log.aborted.includes('slow'), OUTAGE_MS);
      expect(host.served[1]).toBe(1);
    }, 15_000);

    it('applies a log level chosen on another process while this one could not hear the bus', async () => {
      const host = await hostTwo((kind) => kind === 'logging/setLevel');
      const client = await connect(host.url);
      const logged: unknown[] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
        logged.push(notification.params.data);
      });
      // Endpoint 0 holds the session's copy (it served initialize); then the level is set on endpoint 1.
      await client.callTool({ name: 'shout', arguments: {} });
      expect(logged).toEqual(['quiet', 'loud']);
      await dropSubscribers();
      await client.setLoggingLevel('error');
      // The subscriber is still down: only the bus log can have told endpoint 0.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await client.callTool({ name: 'shout', arguments: {} });
      expect(logged).toEqual(['quiet', 'loud', 'loud']);
      expect(host.served[1]).toBe(1);
    }, 15_000);
  },
  // It drops every subscriber connection of its Redis and limits its connections: it needs one of its own.
  { ownServer: true },
);
