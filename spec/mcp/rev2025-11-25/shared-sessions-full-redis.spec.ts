import 'reflect-metadata';
import { createClient } from 'redis';
import { createRedisBackend } from '../../../lib/redis';
import { toBudgetKeys, toSessionKeys } from '../../../lib/redis/redis-keys';
import type { AgentServerHandle } from '../../../lib/agents/agent-server-options';
import { startAgentServer } from '../../../lib/server/start-agent-server';
import { describeWithRedis, startRedisServer } from '../../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../../fixtures/redis/redis-server';
import { createFakeAgent } from '../../fixtures/serve/fake-agent';
import { initializeBody, MCP_HEADERS, openRawSession, rawRequest } from '../../fixtures/serve/http-helpers';
import type { RawResponse } from '../../fixtures/serve/http-helpers';

const MAXMEMORY = 64 * 1024 * 1024;

/** The review's payload: 500 kB of text in a field nobody needs that big. */
const BIG = 'x'.repeat(500_000);

describeWithRedis(
  'Serving on a Redis with maxmemory and noeviction (as docs/scaling.md recommends)',
  () => {
    let redis: RedisServerHandle;
    let admin: ReturnType<typeof createClient>;
    const handles: AgentServerHandle[] = [];

    beforeAll(async () => {
      redis = await startRedisServer({ args: ['--maxmemory', '64mb', '--maxmemory-policy', 'noeviction'] });
      admin = createClient({ url: redis.url });
      admin.on('error', () => {});
      await admin.connect();
    });
    afterEach(async () => {
      await Promise.all(handles.splice(0).map((handle) => handle.close()));
      await admin.flushAll();
    });
    afterAll(async () => {
      admin?.destroy();
      await redis?.dispose();
    });

    async function serve(): Promise<AgentServerHandle> {
      const handle = await startAgentServer(createFakeAgent(), {
        redis: redis.url,
        redisKeyPrefix: redis.keyPrefix,
      });
      handles.push(handle);
      return handle;
    }

    function post(handle: AgentServerHandle, sessionId: string, body: unknown): Promise<RawResponse> {
      return rawRequest({
        port: handle.port,
        headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId },
        body: JSON.stringify(body),
      });
    }

    async function usedMemory(): Promise<number> {
      return Number(/^used_memory:(\d+)/m.exec(await admin.info('memory'))?.[1]);
    }

    it('takes half of maxmemory as the byte budget of the prefix by default', async () => {
      const backend = await createRedisBackend({ redis: redis.url, keyPrefix: redis.keyPrefix });
      expect(backend.maxTotalBytes).toBe(MAXMEMORY / 2);
      await backend.close();
    });

    it('stays within its share when one client floods it, and every new client still gets a session', async () => {
      const handle = await serve();
      const statuses: number[] = [];
      // The review's flood: cancels with a 500 kB reason, on one session (before: Redis full in ~120).
      const flooder = await openRawSession(handle.port);
      for (let n = 0; n < 150; n += 1) {
        const cancel = {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: n, reason: BIG },
        };
        statuses.push((await post(handle, flooder, cancel)).status);
      }
      // The cancels kept their request id and a short reason: the flooder's bus log is small.
      const flooderKeys = toSessionKeys(redis.keyPrefix, { sessionId: flooder });
      const [lastCancel] = (await admin.xRevRange(flooderKeys.busLog, '+', '-', { COUNT: 1 })) ?? [];
      expect(JSON.parse(lastCancel!.message.m!).m.params).toEqual({
        requestId: 149,
        reason: 'x'.repeat(1_000),
      });
      expect(Number(await admin.hGet(flooderKeys.busCounters, 'bytes'))).toBeLessThan(2 * 1024 * 1024);
      // Answers of 500 kB for a process that does not exist, from many sessions: every bus log at its bound.
      for (let session = 0; session < 30; session += 1) {
        const sessionId = await openRawSession(handle.port);
        for (let n = 0; n < 4; n += 1) {
          const answer = { jsonrpc: '2.0', id: `aaaaaaaaaaaa-${n}`, result: { text: BIG } };
          statuses.push((await post(handle, sessionId, answer)).status);
        }
      }
      // Calls whose 500 kB results fill event logs.
      for (let session = 0; session < 8; session += 1) {
        const sessionId = await openRawSession(handle.port);
        for (let n = 0; n < 3; n += 1) {
          const call = {
            jsonrpc: '2.0',
            id: n + 2,
            method: 'tools/call',
            params: { name: 'echo', arguments: { text: BIG } },
          };
          const answer = await post(handle, sessionId, call);
          expect([answer.status, answer.json?.result?.content?.[0]?.text?.length]).toEqual([200, BIG.length]);
        }
      }
      expect(statuses.filter((status) => status !== 202)).toEqual([]);
      // Everything the logs hold stays within the prefix's budget, and Redis has room left.
      expect(Number(await admin.hGet(toBudgetKeys(redis.keyPrefix).budget, 'bytes'))).toBeLessThanOrEqual(
        MAXMEMORY / 2,
      );
      expect(await usedMemory()).toBeLessThan(MAXMEMORY * 0.75);
      // A new client gets a session, and the flooder's session is still served.
      const fresh = await rawRequest({ port: handle.port, headers: MCP_HEADERS, body: initializeBody() });
      expect([fresh.status, typeof fresh.json?.result?.serverInfo]).toEqual([200, 'object']);
      const listed = await post(handle, flooder, { jsonrpc: '2.0', id: 9, method: 'tools/list' });
      expect([listed.status, Array.isArray(listed.json?.result?.tools)]).toEqual([200, true]);
    });

    it('refuses new sessions with 503 while Redis is full of something else, and serves the sessions it has', async () => {
      const handle = await serve();
      const existing = await openRawSession(handle.port);
      // Another program fills Redis until it refuses even a small write.
      let stored = 0;
      for (const size of [1024 * 1024, 64 * 1024, 4 * 1024, 256, 16]) {
        for (;;) {
          const full = await admin.set(`junk:${stored}`, 'j'.repeat(size)).then(
            () => false,
            (error: unknown) => /^OOM/.test(String((error as Error).message)),
          );
          if (full) break;
          stored += 1;
        }
      }
      expect(stored).toBeGreaterThan(40);
      const refused = await rawRequest({ port: handle.port, headers: MCP_HEADERS, body: initializeBody() });
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json).toEqual({
        jsonrpc: '2.0',
        error: {
          code: -32603,
          message:
            "session store unavailable: Redis is full (used memory > 'maxmemory') and refuses to store more; give it more maxmemory or lower the bounds of what Protolink keeps there (see Sizing in docs/scaling.md)",
        },
        id: null,
      });
      // The session it has needs no new record: its requests are answered (their events, not kept, go out live).
      const listed = await post(handle, existing, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
      expect([listed.status, Array.isArray(listed.json?.result?.tools)]).toEqual([200, true]);
      const call = {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'add', arguments: { a: 2, b: 3 } },
      };
      const added = await post(handle, existing, call);
      expect([added.status, added.json?.result?.content?.[0]?.text]).toEqual([200, '5']);
      // What must reach the other processes needs room on the bus: refused the same way.
      const cancel = {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 3, reason: 'late' },
      };
      const canceled = await post(handle, existing, cancel);
      expect([canceled.status, canceled.json?.error?.message]).toEqual([503, refused.json.error.message]);
      // Once there is room again, new sessions are created again.
      for (let n = 0; n < stored; n += 1) await admin.del(`junk:${n}`);
      const fresh = await rawRequest({ port: handle.port, headers: MCP_HEADERS, body: initializeBody() });
      expect(fresh.status).toBe(200);
    });
  },
  { ownServer: true },
);
