import 'reflect-metadata';
import { createServer } from 'node:net';
import { createClient } from 'redis';
import { SessionStoreUnavailableError } from '../../lib/errors/session-store-unavailable-error';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import type { AgentServerHandle, AgentServerOptions } from '../../lib/agents/agent-server-options';
import { startAgentServer } from '../../lib/server/start-agent-server';
import { describeWithRedis, startRedisServer } from '../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../fixtures/redis/redis-server';
import { createFakeAgent } from '../fixtures/serve/fake-agent';
import { connectHttpClient, MCP_HEADERS, initializeBody, rawRequest } from '../fixtures/serve/http-helpers';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Starts and closes a server on `port`: proves a failed start left nothing listening there. */
async function expectPortFree(port: number): Promise<void> {
  const handle = await startAgentServer(createFakeAgent(), { url: `http://127.0.0.1:${port}` });
  expect(handle.port).toBe(port);
  await handle.close();
}

async function failureOf(options: AgentServerOptions, port: number): Promise<Error> {
  const error = await startAgentServer(createFakeAgent(), {
    url: `http://127.0.0.1:${port}`,
    ...options,
  }).then(
    (handle) => handle.close().then(() => undefined),
    (caught: unknown) => caught as Error,
  );
  if (!error) throw new Error(`startAgentServer(${JSON.stringify(options)}) did not fail`);
  await expectPortFree(port);
  return error;
}

describe('startAgentServer past one process', () => {
  const handles: AgentServerHandle[] = [];
  afterEach(async () => {
    await Promise.all(handles.splice(0).map((handle) => handle.close()));
  });

  describe('publicUrl', () => {
    it("accepts the public URL's Host and Origin like its own and refuses other hosts", async () => {
      const handle = await startAgentServer(createFakeAgent(), { publicUrl: 'https://agent.example.com' });
      handles.push(handle);
      const initialize = (headers: Record<string, string>) =>
        rawRequest({ port: handle.port, headers: { ...MCP_HEADERS, ...headers }, body: initializeBody() });
      for (const headers of <Record<string, string>[]>[
        { host: 'agent.example.com' },
        { host: 'agent.example.com:443', origin: 'https://agent.example.com' },
        { host: `127.0.0.1:${handle.port}` },
      ]) {
        const answer = await initialize(headers);
        expect(answer.status).toBe(200);
        expect(answer.json.result.serverInfo).toBeDefined();
      }
      for (const host of ['evil.example', 'agent.example.com:8443', 'other.example.com']) {
        const refused = await initialize({ host });
        expect(refused.status).toBe(403);
        expect(refused.json.error.message).toBe(
          `Forbidden: Host '${host}' is not allowed (DNS rebinding protection).`,
        );
      }
      const foreignOrigin = await initialize({ host: 'agent.example.com', origin: 'https://evil.example' });
      expect(foreignOrigin.status).toBe(403);
    });

    it('advertises it on the card when the card names no real address, or the listen address', async () => {
      const port = await freePort();
      for (const cardUrl of [
        undefined,
        'http://127.0.0.1:0',
        `http://127.0.0.1:${port}`,
        `http://localhost:${port}/`,
      ]) {
        const handle = await startAgentServer(createFakeAgent({ url: cardUrl }), {
          url: `http://127.0.0.1:${port}`,
          publicUrl: 'https://agent.example.com/crm',
        });
        try {
          const card = await rawRequest({ port, method: 'GET', path: '/.well-known/agent.json' });
          expect(card.json.url).toBe('https://agent.example.com/crm');
        } finally {
          await handle.close();
        }
      }
    });

    it('keeps a card URL that names another address', async () => {
      const handle = await startAgentServer(createFakeAgent({ url: 'https://docs.example.com/agent' }), {
        url: 'http://127.0.0.1:0',
        publicUrl: 'https://agent.example.com',
      });
      handles.push(handle);
      const card = await rawRequest({ port: handle.port, method: 'GET', path: '/.well-known/agent.json' });
      expect(card.json.url).toBe('https://docs.example.com/agent');
    });

    it('refuses a bad publicUrl before listening, naming the option', async () => {
      const port = await freePort();
      const error = await failureOf({ publicUrl: 'ftp://agent.example.com' }, port);
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect(error.message).toMatch(/^publicUrl must be an http:\/\/ or https:\/\/ URL/);
      const credentials = await failureOf({ publicUrl: 'https://u:hunter2@agent.example.com' }, port);
      expect(credentials.message).not.toContain('hunter2');
    });
  });

  describe('redis, refused before listening', () => {
    it.each([
      [
        { sessionMode: 'stateless' },
        ToolDefinitionError,
        "redis cannot be used with sessionMode: 'stateless'",
      ],
      [{ eventStore: false }, ToolDefinitionError, 'eventStore cannot be used with redis'],
      [
        { redisKeyPrefix: 'a{b}' },
        ToolInputError,
        'redisKeyPrefix must be up to 200 visible ASCII characters',
      ],
    ] as const)('refuses redis with %j', async (extra, type, message) => {
      const port = await freePort();
      const error = await failureOf({ redis: 'redis://127.0.0.1:1', ...extra } as AgentServerOptions, port);
      expect(error).toBeInstanceOf(type);
      expect(error.message).toContain(message);
    });

    it('refuses a URL that is not a Redis URL, without its password', async () => {
      const port = await freePort();
      const error = await failureOf({ redis: 'http://user:hunter2@cache.internal:6379' }, port);
      expect(error).toBeInstanceOf(ToolInputError);
      expect(error.message).toBe(
        "redis must be a redis:// or rediss:// URL (like redis://127.0.0.1:6379) or a node-redis client, got 'http://***@cache.internal:6379'.",
      );
    });
  });

  describe('redis that cannot be reached', () => {
    it('fails the start with SessionStoreUnavailableError and leaves nothing listening', async () => {
      const port = await freePort();
      const redisPort = await freePort();
      const error = await failureOf({ redis: `redis://:hunter2@127.0.0.1:${redisPort}` }, port);
      expect(error).toBeInstanceOf(SessionStoreUnavailableError);
      expect(error.message).toMatch(/^session store unavailable: .*ECONNREFUSED/);
      expect(error.message).not.toContain('hunter2');
      expect(error).toMatchObject({ retryable: true, status: 503 });
    });
  });
});

describeWithRedis('startAgentServer with redis', () => {
  let redis: RedisServerHandle;
  let observer: ReturnType<typeof createClient>;

  beforeAll(async () => {
    redis = await startRedisServer();
    observer = createClient({ url: redis.url });
    observer.on('error', () => {});
    await observer.connect();
  });

  afterAll(async () => {
    observer?.destroy();
    await redis?.dispose();
  });

  async function connectedClients(): Promise<number> {
    const info = await observer.sendCommand(['INFO', 'clients']);
    return Number(/connected_clients:(\d+)/.exec(String(info))![1]);
  }

  it('connects before it resolves, serves, and closes its connections when closed', async () => {
    const before = await connectedClients();
    const handle = await startAgentServer(createFakeAgent(), {
      redis: redis.url,
      redisKeyPrefix: redis.keyPrefix,
    });
    try {
      // One connection for commands, one for subscriptions.
      if (!redis.external) expect(await connectedClients()).toBe(before + 2);
      const client = await connectHttpClient(handle.mcpUrl);
      expect(await client.callTool({ name: 'add', arguments: { a: 40, b: 2 } })).toMatchObject({
        structuredContent: { result: 42 },
      });
      await client.close();
    } finally {
      await handle.close();
    }
    if (!redis.external) expect(await connectedClients()).toBe(before);
  });

  it('refuses a maxEventStoreBytes under maxEventStoreBytesPerSession, leaving no connection and nothing listening', async () => {
    const before = await connectedClients();
    const port = await freePort();
    const error = await failureOf(
      {
        redis: redis.url,
        redisKeyPrefix: redis.keyPrefix,
        maxEventStoreBytesPerSession: 1024 * 1024,
        maxEventStoreBytes: 512 * 1024,
      },
      port,
    );
    expect(error).toBeInstanceOf(ToolInputError);
    expect(error.message).toBe(
      'RedisEventLog maxTotalBytes (maxEventStoreBytes when serving with redis) must be at least maxBytes (maxEventStoreBytesPerSession), 1048576: one session may hold that much; got 524288.',
    );
    if (!redis.external) expect(await connectedClients()).toBe(before);
  });

  it('uses a node-redis client it is given and never closes it', async () => {
    const given = createClient({ url: redis.url });
    given.on('error', () => {});
    await given.connect();
    try {
      const before = await connectedClients();
      const handle = await startAgentServer(createFakeAgent(), { redis: given as never });
      // Only the subscriber duplicate is new.
      if (!redis.external) expect(await connectedClients()).toBe(before + 1);
      await handle.close();
      expect(given.isReady).toBe(true);
      expect(await given.ping()).toBe('PONG');
      if (!redis.external) expect(await connectedClients()).toBe(before);
    } finally {
      given.destroy();
    }
  });
});
