// Faults with real processes: two `protolink serve --redis` processes behind the round-robin proxy (no
// affinity), one redis-server of the suite's own. A process killed (SIGKILL) while it runs a call, and Redis
// going away and coming back, with nothing lost and nothing hanging.
import { describeWithRedis, startRedisServer } from '../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../fixtures/redis/redis-server';
import type { RoundRobinProxy } from '../fixtures/round-robin-proxy';
import { startServeCluster } from '../fixtures/serve/serve-processes';
import type { ServeCluster, ServeProcess } from '../fixtures/serve/serve-processes';
import { LOST_INSTANCE_MESSAGE } from '../../lib/mcp/rev2025-11-25/serve-followed-stream';

jest.setTimeout(180_000);

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

/** One SSE event: its id (if any) and its JSON-RPC message. */
interface SseEvent {
  id?: string;
  message: {
    id?: unknown;
    method?: string;
    params?: Record<string, unknown>;
    result?: unknown;
    error?: { code: number; message: string };
  };
}

/** Reads SSE events from a response body, one at a time; `next()` is undefined once the stream ended or broke. */
function sseReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(): Promise<SseEvent | undefined> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trim())
            .join('\n');
          if (data === '') continue; // a comment or a retry hint
          const id = /^id:\s*(.*)$/m.exec(block)?.[1];
          return { id, message: JSON.parse(data) as SseEvent['message'] };
        }
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch {
          return undefined;
        }
        if (chunk.done) return undefined;
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
    cancel: () => reader.cancel().catch(() => undefined),
  };
}

describeWithRedis(
  'protolink serve --redis: faults with real processes behind a round-robin proxy',
  () => {
    let redis: RedisServerHandle;
    let cluster: ServeCluster | undefined;
    let processes: ServeProcess[] = [];
    let proxy: RoundRobinProxy;

    /** POSTs through the proxy; a 502 (the proxy's turn fell on a dead process) is tried again, as a client would. */
    async function post(
      body: unknown,
      sessionId?: string,
      extra: Record<string, string> = {},
    ): Promise<Response> {
      for (let attempt = 0; ; attempt += 1) {
        const response = await fetch(proxy.mcpUrl, {
          method: 'POST',
          headers: { ...HEADERS, ...(sessionId ? { 'mcp-session-id': sessionId } : {}), ...extra },
          body: JSON.stringify(body),
        });
        if (response.status !== 502 || attempt === 5) return response;
        await response.text();
      }
    }

    async function openSession(): Promise<string> {
      const opened = await post({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'faults', version: '1.0.0' },
        },
      });
      const text = await opened.text();
      const sessionId = opened.headers.get('mcp-session-id');
      if (opened.status !== 200 || !sessionId) throw new Error(`initialize: ${opened.status} ${text}`);
      const initialized = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId);
      expect(initialized.status).toBe(202);
      await initialized.text();
      return sessionId;
    }

    /** Starts a `count_slowly` call and returns its SSE stream and which process took it. */
    async function startCounting(sessionId: string, id: number, steps: number, delayMs: number) {
      const before = [...proxy.requestsPerTarget];
      const response = await post(
        {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: {
            name: 'count_slowly',
            arguments: { steps, delay_ms: delayMs },
            _meta: { progressToken: `progress-${id}` },
          },
        },
        sessionId,
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const owner = proxy.requestsPerTarget.findIndex((count, index) => count > before[index]!);
      return { events: sseReader(response), owner };
    }

    async function addThroughProxy(sessionId: string, id: number) {
      const response = await post(
        { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'add', arguments: { a: 20, b: 22 } } },
        sessionId,
      );
      return { status: response.status, text: await response.text() };
    }

    beforeAll(async () => {
      redis = await startRedisServer();
      cluster = await startServeCluster(2, redis, { readyTimeoutMs: 180_000 });
      ({ proxy } = cluster);
      processes = [...cluster.processes];
    });

    afterAll(async () => {
      await cluster?.close();
      await redis?.dispose();
    });

    it('keeps a running call finishing while Redis is down, answers 503 "session store unavailable" meanwhile, and recovers by itself', async () => {
      const sessionId = await openSession();
      const { events } = await startCounting(sessionId, 11, 8, 150);
      const first = await events.next();
      expect(first?.message.method).toBe('notifications/progress');
      await redis.stop();
      try {
        const refused = await post({ jsonrpc: '2.0', id: 12, method: 'tools/list' }, sessionId);
        expect(refused.status).toBe(503);
        const body = (await refused.json()) as { error: { code: number; message: string } };
        expect(body.error.code).toBe(-32603);
        expect(body.error.message).toMatch(/^session store unavailable: /);
        // The call that was running goes on to its result, on the stream it was answering on.
        let last: SseEvent | undefined;
        for (let event = await events.next(); event; event = await events.next()) last = event;
        expect(last?.message.id).toBe(11);
        expect(last?.message.result).toMatchObject({ structuredContent: { steps: 8 } });
      } finally {
        await redis.restart();
      }
      // Both processes stayed up, and serve new sessions once Redis is back (it restarted empty).
      const states = await Promise.all(
        processes.map((served) =>
          Promise.race([served.exited.then(() => 'exited'), Promise.resolve('running')]),
        ),
      );
      expect(states).toEqual(['running', 'running']);
      let fresh: string | undefined;
      for (let attempt = 0; fresh === undefined; attempt += 1) {
        try {
          fresh = await openSession();
        } catch (error) {
          if (attempt === 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
      for (let id = 20; id < 24; id += 1) {
        const answered = await addThroughProxy(fresh, id);
        expect(answered.status).toBe(200);
        expect(answered.text).toContain('"text":"42"');
      }
    });

    it('answers a call whose process was killed with every stored event, then the lost-instance error, and the session goes on', async () => {
      const sessionId = await openSession();
      const { events, owner } = await startCounting(sessionId, 31, 100, 100);
      expect(owner).toBeGreaterThanOrEqual(0);
      const seen: SseEvent[] = [];
      while (seen.length < 3) {
        const event = await events.next();
        if (!event) throw new Error('the call stream ended before three progress events');
        seen.push(event);
      }
      expect(seen.every((event) => event.message.method === 'notifications/progress' && event.id)).toBe(true);
      await processes[owner]!.stop('SIGKILL');
      // The stream it was answering on breaks without a result.
      for (let event = await events.next(); event; event = await events.next()) {
        expect(event.message.id).toBeUndefined();
        seen.push(event);
      }
      // The client resumes from the last event it got; the GET lands on whichever process the proxy picks.
      const lastEventId = seen[seen.length - 1]!.id!;
      const started = Date.now();
      let resumed: Response;
      for (let attempt = 0; ; attempt += 1) {
        resumed = await fetch(proxy.mcpUrl, {
          headers: { ...HEADERS, 'mcp-session-id': sessionId, 'last-event-id': lastEventId },
        });
        if (resumed.status !== 502 || attempt === 5) break;
        await resumed.text();
      }
      expect(resumed.status).toBe(200);
      const replay = sseReader(resumed);
      let answer: SseEvent | undefined;
      for (let event = await replay.next(); event; event = await replay.next()) {
        if (event.message.id === 31) {
          answer = event;
          break;
        }
        // Only what was stored before the death: progress of this call, in order.
        expect(event.message.method).toBe('notifications/progress');
      }
      await replay.cancel();
      expect(answer?.message.error).toEqual({ code: -32603, message: LOST_INSTANCE_MESSAGE });
      // Within a few seconds of the death (the owner's lease runs out), never an endless wait.
      expect(Date.now() - started).toBeLessThan(15_000);
      const answered = await addThroughProxy(sessionId, 32);
      expect(answered.status).toBe(200);
      expect(answered.text).toContain('"text":"42"');
    });
  },
  { ownServer: true },
);
