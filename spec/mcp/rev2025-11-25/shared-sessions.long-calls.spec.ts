// Shared sessions on a real Redis, where a call outlives what a process sees of its session: its local copy
// idles while the client works through another process, the call outlives the session's idle timeout and then
// loses its process, its result comes while Redis refuses writes, the log's bounds drop a followed stream's
// cursor. Nothing may hang and nothing may be lost.
import 'reflect-metadata';
import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createClient } from 'redis';
import { createRedisBackend } from '../../../lib/redis';
import type { RedisBackend } from '../../../lib/redis';
import { McpEndpoint } from '../../../lib/server/http/mcp-endpoint';
import { LOST_INSTANCE_MESSAGE } from '../../../lib/mcp/rev2025-11-25/serve-followed-stream';
import { TOO_BIG_TO_KEEP_MESSAGE } from '../../../lib/state/too-big-to-keep';
import type { CallLeases } from '../../../lib/state/call-leases';
import type { SharedSessionState } from '../../../lib/mcp/serve/shared-session-state';
import type { ServableAgent } from '../../../lib/agents/servable-agent';
import { NativeTool } from '../../../lib/tools/native-tool';
import { describeWithRedis, startRedisServer } from '../../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../../fixtures/redis/redis-server';
import { createFakeAgent } from '../../fixtures/serve/fake-agent';
import { readJsonBody, sharedEndpointOptions } from '../../fixtures/serve/shared-endpoints';

jest.setTimeout(60_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Which endpoint serves a request: resumes (`Last-Event-ID`) and pings may go elsewhere than the rest. */
type Route = (request: IncomingMessage, body: unknown) => number;

interface Hosted {
  readonly url: string;
  readonly endpoints: McpEndpoint[];
  readonly errors: unknown[];
  close(): Promise<void>;
}

/** Endpoints (as if in several processes) over their own states, behind one port that routes by `route`. */
async function host(states: SharedSessionState[], agent: ServableAgent, route: Route, idleMs: number) {
  const errors: unknown[] = [];
  const endpoints = states.map(
    (sharedState) =>
      new McpEndpoint(
        agent,
        sharedEndpointOptions(sharedState, (error) => errors.push(error), {
          idleTimeoutMs: idleMs,
          interactionTimeoutMs: 30_000,
        }),
      ),
  );
  const server: Server = createServer((request, response) => {
    void readJsonBody(request).then((body) => {
      if (body !== undefined) Object.assign(request, { body });
      return endpoints[route(request, body)]!.handle(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const hosted: Hosted = {
    url: `http://127.0.0.1:${port}/mcp`,
    endpoints,
    errors,
    close: async () => {
      await Promise.all(endpoints.map((endpoint) => endpoint.close()));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return hosted;
}

function agentWith(...tools: NativeTool[]): ServableAgent {
  const agent = createFakeAgent();
  for (const tool of tools) (agent.tools as Map<string, NativeTool>).set(tool.name, tool);
  return agent;
}

/** A tool that lets go of its response stream (so the client resumes it with a GET), then works `ms`. */
function letGoThenWork(name: string, ms: number): NativeTool {
  return new NativeTool({
    name,
    description: `Lets go of its stream, then works ${ms} ms`,
    inputSchema: {},
    func: async (_args, context) => {
      context.closeSSEStream();
      await context.reportProgress(1, 2, 'started');
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        context.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new Error('aborted'));
        });
      });
      return 'finished';
    },
  });
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'long-calls', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** Resumes (GET with Last-Event-ID) and pings to endpoint 1, the rest to endpoint 0. */
const resumesElsewhere: Route = (request, body) =>
  request.headers['last-event-id'] || (body as { method?: string } | undefined)?.method === 'ping' ? 1 : 0;

describeWithRedis(
  'shared sessions on Redis: calls that outlive what one process sees',
  () => {
    let redis: RedisServerHandle;
    let admin: ReturnType<typeof createClient>;
    let backends: RedisBackend[] = [];
    let hosted: Hosted | undefined;
    let client: Client | undefined;

    beforeAll(async () => {
      redis = await startRedisServer();
      admin = createClient({ url: redis.url });
      admin.on('error', () => undefined);
      await admin.connect();
    });

    afterEach(async () => {
      await admin.sendCommand(['CONFIG', 'SET', 'maxmemory', '0']);
      await client?.close().catch(() => undefined);
      client = undefined;
      await hosted?.close();
      hosted = undefined;
      await Promise.all(backends.map((backend) => backend.close()));
      backends = [];
    });

    afterAll(async () => {
      admin?.destroy();
      await redis?.dispose();
    });

    let runs = 0;
    /** `count` backends over one key prefix of their own (each test its own sessions and events). */
    async function backendsFor(count: number, options: { idleTimeoutMs?: number; maxBytes?: number } = {}) {
      runs += 1;
      backends = await Promise.all(
        Array.from({ length: count }, () =>
          createRedisBackend({
            redis: redis.url,
            keyPrefix: `${redis.keyPrefix}run${runs}:`,
            idleTimeoutMs: options.idleTimeoutMs,
            eventLog: options.maxBytes ? { maxBytes: options.maxBytes } : undefined,
          }),
        ),
      );
      return backends;
    }

    it("keeps a call running when its process's copy of the session idles while the client works through another", async () => {
      const idle = 1_500;
      const states = await backendsFor(2, { idleTimeoutMs: idle });
      hosted = await host(states, agentWith(letGoThenWork('work', 4_000)), resumesElsewhere, idle);
      client = await connect(hosted.url);
      const pinger = setInterval(() => void client?.ping().catch(() => undefined), 300);
      try {
        const result = await client.callTool({ name: 'work', arguments: {} }, undefined, {
          timeout: 30_000,
          onprogress: () => undefined,
        });
        expect(result.content).toEqual([{ type: 'text', text: 'finished' }]);
      } finally {
        clearInterval(pinger);
      }
    });

    it('answers a resumed call as lost when its process dies after the session idle timeout passed', async () => {
      const idle = 2_000;
      const states = await backendsFor(2, { idleTimeoutMs: idle });
      // Endpoint 0 "dies" (its heartbeat stops, as when its process is killed) once the call ran past the
      // idle timeout, when a claim that lasted only that long had run out.
      let dead = false;
      const real = states[0]!.leases!;
      const mortal: CallLeases = {
        heartbeat: (id, ttl) => (dead ? Promise.resolve() : real.heartbeat(id, ttl)),
        isAlive: (id) => real.isAlive(id),
        claimStream: (key, stream, owner, ttl) => real.claimStream(key, stream, owner, ttl),
        streamOwner: (key, stream) => real.streamOwner(key, stream),
      };
      hosted = await host(
        [{ ...states[0]!, leases: mortal }, states[1]!],
        agentWith(letGoThenWork('hang', 60_000)),
        resumesElsewhere,
        idle,
      );
      client = await connect(hosted.url);
      const pinger = setInterval(() => void client?.ping().catch(() => undefined), 300);
      setTimeout(() => (dead = true), 3_500);
      try {
        const started = Date.now();
        await expect(
          client.callTool({ name: 'hang', arguments: {} }, undefined, {
            timeout: 40_000,
            onprogress: () => undefined,
          }),
        ).rejects.toThrow(LOST_INSTANCE_MESSAGE);
        // Within a few seconds of the death, not at the request's own timeout.
        expect(Date.now() - started).toBeLessThan(20_000);
      } finally {
        clearInterval(pinger);
      }
    });

    it('stores a result that came while Redis refused writes once Redis takes them again, and the resume gets it', async () => {
      const states = await backendsFor(2);
      hosted = await host(states, agentWith(letGoThenWork('poll', 1_500)), resumesElsewhere, 60_000);
      client = await connect(hosted.url);
      // Redis refuses every write (out of memory) from before the result until after it.
      setTimeout(() => void admin.sendCommand(['CONFIG', 'SET', 'maxmemory', '1']), 700);
      setTimeout(() => void admin.sendCommand(['CONFIG', 'SET', 'maxmemory', '0']), 2_700);
      const result = await client.callTool({ name: 'poll', arguments: {} }, undefined, {
        timeout: 30_000,
        onprogress: () => undefined,
      });
      expect(result.content).toEqual([{ type: 'text', text: 'finished' }]);
    });

    it('answers a resumed call whose result was too big for the bounds with an error saying so, rather than leave it waiting', async () => {
      const states = await backendsFor(2, { maxBytes: 30_000 });
      const big = new NativeTool({
        name: 'big',
        description: 'Lets go of its stream, then returns more than the bounds keep',
        inputSchema: {},
        func: async (_args, context) => {
          context.closeSSEStream();
          await context.reportProgress(1, 2, 'started');
          await sleep(500);
          return 'x'.repeat(60_000);
        },
      });
      hosted = await host(states, agentWith(big), resumesElsewhere, 60_000);
      client = await connect(hosted.url);
      const started = Date.now();
      // The result could not be kept: the resume on the other process gets the error kept in its place.
      await expect(
        client.callTool({ name: 'big', arguments: {} }, undefined, {
          timeout: 30_000,
          onprogress: () => undefined,
        }),
      ).rejects.toThrow(TOO_BIG_TO_KEEP_MESSAGE);
      expect(Date.now() - started).toBeLessThan(15_000);
    });

    it('forgets the claims of streams whose requests were answered, rather than keeping them for the idle timeout', async () => {
      const states = await backendsFor(2);
      hosted = await host(states, agentWith(letGoThenWork('quick', 200)), resumesElsewhere, 60_000);
      client = await connect(hosted.url);
      const owners = () => admin.keys(`${redis.keyPrefix}run${runs}:owner:*`);
      const resolved = client.callTool({ name: 'quick', arguments: {} }, undefined, {
        onprogress: () => undefined,
      });
      // While the call runs, its stream is claimed (a follower elsewhere could tell if it were lost).
      const until = Date.now() + 5_000;
      while ((await owners()).length === 0 && Date.now() < until) await sleep(20);
      expect(await owners()).toHaveLength(1);
      expect((await resolved).content).toEqual([{ type: 'text', text: 'finished' }]);
      const gone = Date.now() + 5_000;
      while ((await owners()).length > 0 && Date.now() < gone) await sleep(20);
      expect(await owners()).toEqual([]);
    });

    it("keeps the session's notification stream going when the log's bounds drop its cursor", async () => {
      const states = await backendsFor(1, { maxBytes: 200_000 });
      hosted = await host(states, agentWith(), () => 0, 60_000);
      client = await connect(hosted.url);
      const got: string[] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
        got.push(String(notification.params.data));
      });
      await sleep(300);
      const sessions = (hosted.endpoints[0] as unknown as { sessions: { sessions: Map<string, unknown> } })
        .sessions.sessions;
      const session = [...sessions.values()][0] as {
        server: { sendLoggingMessage(params: object): Promise<void> };
      };
      await session.server.sendLoggingMessage({ level: 'info', data: 'before' });
      await sleep(300);
      // Results of 20 kB each, stored on their own streams, push the notification stream's events out.
      for (let index = 0; index < 12; index += 1) {
        await client.callTool({ name: 'echo', arguments: { text: 'x'.repeat(20_000) } }, undefined, {
          onprogress: () => undefined,
        });
      }
      await sleep(1_500);
      await session.server.sendLoggingMessage({ level: 'info', data: 'after' });
      const until = Date.now() + 10_000;
      while (got.length < 2 && Date.now() < until) await sleep(50);
      expect(got).toEqual(['before', 'after']);
    });
  },
  { ownServer: true },
);
