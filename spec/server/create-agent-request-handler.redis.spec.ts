import 'reflect-metadata';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import { SessionStoreUnavailableError } from '../../lib/errors/session-store-unavailable-error';
import { createAgentRequestHandler } from '../../lib/server/create-agent-request-handler';
import type { AgentRequestHandler } from '../../lib/server/create-agent-request-handler';
import { describeWithRedis, startRedisServer } from '../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../fixtures/redis/redis-server';
import { createFakeAgent } from '../fixtures/serve/fake-agent';
import { initializeBody, MCP_HEADERS, rawRequest } from '../fixtures/serve/http-helpers';

describeWithRedis(
  'createAgentRequestHandler with redis',
  () => {
    let redis: RedisServerHandle;
    let handler: AgentRequestHandler | undefined;
    let server: Server | undefined;
    let port = 0;
    const errors: unknown[] = [];

    beforeAll(async () => {
      redis = await startRedisServer();
    });

    afterAll(async () => {
      await redis?.dispose();
    });

    beforeEach(async () => {
      errors.length = 0;
      handler = createAgentRequestHandler(createFakeAgent(), {
        redis: redis.url,
        redisKeyPrefix: redis.keyPrefix,
        onError: (error) => errors.push(error),
      });
      const mounted = handler;
      server = createServer((request, response) => void mounted.handle(request, response));
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
      port = (server.address() as AddressInfo).port;
    });

    afterEach(async () => {
      await handler?.close();
      await new Promise<void>((resolve) => {
        server?.close(() => resolve());
        server?.closeAllConnections();
      });
      if (redis.pid === undefined) await redis.restart();
    });

    async function connectedClients(): Promise<number> {
      const observer = createClient({ url: redis.url });
      observer.on('error', () => {});
      await observer.connect();
      try {
        const info = String(await observer.sendCommand(['INFO', 'clients']));
        // Less this observer's own connection.
        return Number(/connected_clients:(\d+)/.exec(info)![1]) - 1;
      } finally {
        observer.destroy();
      }
    }

    const initialize = () => rawRequest({ port, headers: { ...MCP_HEADERS }, body: initializeBody() });

    it('connects on the first MCP request (not for the card), and closes its connections with close()', async () => {
      expect(await connectedClients()).toBe(0);
      const card = await rawRequest({ port, method: 'GET', path: '/.well-known/agent.json' });
      expect(card.status).toBe(200);
      expect(await connectedClients()).toBe(0);
      const answer = await initialize();
      expect(answer.status).toBe(200);
      expect(typeof answer.headers['mcp-session-id']).toBe('string');
      expect(await connectedClients()).toBe(2);
      await handler!.close();
      expect(await connectedClients()).toBe(0);
      expect(handler!.sessionCount).toBe(0);
    });

    it('answers 503 session store unavailable while Redis is down, and serves once it is back', async () => {
      await redis.stop();
      const refused = await initialize();
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json).toEqual({
        jsonrpc: '2.0',
        error: { code: -32603, message: expect.stringMatching(/^session store unavailable: .*ECONNREFUSED/) },
        id: null,
      });
      const notReady = await handler!.ready().catch((caught: unknown) => caught);
      expect(notReady).toBeInstanceOf(SessionStoreUnavailableError);
      await redis.restart();
      await expect(handler!.ready()).resolves.toBeUndefined();
      expect((await initialize()).status).toBe(200);
      // Redis being down is told to onError once, not once per attempt.
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ code: 'ECONNREFUSED' });
    });
  },
  { ownServer: true },
);
