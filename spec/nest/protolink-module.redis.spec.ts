import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { createServer } from 'node:net';
import { createClient } from 'redis';
import { SessionStoreUnavailableError } from '../../lib/errors/session-store-unavailable-error';
import { ProtolinkModule } from '../../lib/nest/index';
import type { ProtolinkModuleOptions } from '../../lib/nest/index';
import { describeWithRedis, startRedisServer } from '../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../fixtures/redis/redis-server';
import { CustomersModule } from '../fixtures/nest/crm-app';
import { startRoundRobinProxy } from '../fixtures/round-robin-proxy';
import { connectHttpClient, rawRequest } from '../fixtures/serve/http-helpers';

const card = { name: 'crm-agent', description: 'CRM tools', url: 'http://127.0.0.1:0' };

async function createApp(options: ProtolinkModuleOptions): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [ProtolinkModule.forRoot(options), CustomersModule],
  }).compile();
  return moduleRef.createNestApplication({ logger: false });
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('ProtolinkModule serve.redis that cannot be reached', () => {
  it('fails app.init() with SessionStoreUnavailableError', async () => {
    const app = await createApp({ card, serve: { redis: `redis://127.0.0.1:${await freePort()}` } });
    try {
      const error = await app.init().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SessionStoreUnavailableError);
      expect((error as Error).message).toMatch(/^session store unavailable: .*ECONNREFUSED/);
    } finally {
      await app.close();
    }
  });
});

describeWithRedis('ProtolinkModule serve.redis', () => {
  let redis: RedisServerHandle;

  beforeAll(async () => {
    redis = await startRedisServer();
  });

  afterAll(async () => {
    await redis?.dispose();
  });

  async function connectedClients(): Promise<number> {
    const observer = createClient({ url: redis.url });
    observer.on('error', () => {});
    await observer.connect();
    try {
      const info = String(await observer.sendCommand(['INFO', 'clients']));
      return Number(/connected_clients:(\d+)/.exec(info)![1]) - 1;
    } finally {
      observer.destroy();
    }
  }

  it('connects at init, serves with publicUrl, and closes its connections with the application', async () => {
    const before = await connectedClients();
    const app = await createApp({
      card,
      serve: { redis: redis.url, redisKeyPrefix: redis.keyPrefix, publicUrl: 'https://crm.example.com' },
    });
    try {
      await app.listen(0, '127.0.0.1');
      if (!redis.external) expect(await connectedClients()).toBe(before + 2);
      const port = (app.getHttpServer().address() as { port: number }).port;
      const client = await connectHttpClient(`http://127.0.0.1:${port}/mcp`);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('lookup_customer');
      await client.close();
      const card = await rawRequest({
        port,
        method: 'GET',
        path: '/.well-known/agent.json',
        headers: { host: 'crm.example.com' },
      });
      expect(card.status).toBe(200);
      expect(card.json.url).toBe('https://crm.example.com');
    } finally {
      await app.close();
    }
    if (!redis.external) expect(await connectedClients()).toBe(before);
  });

  it('serves one session from two Nest applications behind a proxy with no affinity', async () => {
    const proxyPort = await freePort();
    const apps = await Promise.all(
      [0, 1].map(() =>
        createApp({
          card,
          serve: {
            redis: redis.url,
            redisKeyPrefix: redis.keyPrefix,
            publicUrl: `http://127.0.0.1:${proxyPort}`,
          },
        }),
      ),
    );
    try {
      for (const app of apps) await app.listen(0, '127.0.0.1');
      const proxy = await startRoundRobinProxy({
        targets: apps.map(
          (app) => `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`,
        ),
        port: proxyPort,
      });
      try {
        const client = await connectHttpClient(proxy.mcpUrl);
        for (let turn = 0; turn < 4; turn += 1) {
          const { tools } = await client.listTools();
          expect(tools.map((tool) => tool.name)).toContain('lookup_customer');
        }
        await client.close();
        // Every request of the one session went to each application in turn.
        expect(proxy.requestsPerTarget.every((count) => count >= 3)).toBe(true);
        expect(proxy.badGateways).toBe(0);
      } finally {
        await proxy.close();
      }
    } finally {
      await Promise.all(apps.map((app) => app.close()));
    }
  });
});
