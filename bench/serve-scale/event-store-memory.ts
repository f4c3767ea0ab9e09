import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createClient } from 'redis';
import type { RedisServerHandle } from '../../spec/fixtures/redis/redis-server';
import { Agent } from '../../lib/agents/agent';
import {
  DEFAULT_MAX_STORED_EVENT_BYTES,
  DEFAULT_RESUME_WINDOW_MS,
} from '../../lib/state/memory/in-memory-event-store';
import { startAgentServer } from '../../lib/server/start-agent-server';
import { NativeTool } from '../../lib/tools/native-tool';
import type { BenchRow } from '../measure';

const GROUP = 'serve-scale';
const RESULT_BYTES = 500_000;
const MiB = 1024 * 1024;

function collectGarbage(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function heldBytes(gc: () => void): number {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

function buildReportAgent(): Agent {
  const agent = new Agent({
    card: { name: 'event-store-memory', description: 'Event-store bench', url: 'http://127.0.0.1:0' },
  });
  const text = 'x'.repeat(RESULT_BYTES);
  // It reads its context (the second parameter), so its answer goes out as an SSE event, kept in the event
  // store for resumption; a tool that does not is answered as plain JSON and stores nothing.
  agent.addTool(
    new NativeTool({
      name: 'report',
      description: 'A 500 kB report',
      inputSchema: {},
      func: (_args: Record<string, unknown>, _context: unknown) => text,
    }),
  );
  return agent;
}

/**
 * What Redis holds under `prefix` (`MEMORY USAGE` summed): every key, and the event log's keys alone
 * (`<prefix>log:…`; the rest are session records and call leases).
 */
async function redisBytes(
  url: string,
  prefix: string,
): Promise<{ bytes: number; keys: number; logBytes: number; logKeys: number }> {
  const client = createClient({ url });
  await client.connect();
  try {
    let bytes = 0;
    let keys = 0;
    let logBytes = 0;
    let logKeys = 0;
    let cursor = '0';
    do {
      const [next, found] = (await client.sendCommand([
        'SCAN',
        cursor,
        'MATCH',
        `${prefix}*`,
        'COUNT',
        '1000',
      ])) as [string, string[]];
      cursor = next;
      for (const key of found) {
        const used = Number(await client.sendCommand(['MEMORY', 'USAGE', key, 'SAMPLES', '0'])) || 0;
        keys += 1;
        bytes += used;
        if (key.startsWith(`${prefix}log:`)) {
          logKeys += 1;
          logBytes += used;
        }
      }
    } while (cursor !== '0');
    return { bytes, keys, logBytes, logKeys };
  } finally {
    await client.quit();
  }
}

async function callReport(client: Client, call: number): Promise<void> {
  const result = await client.callTool({ name: 'report', arguments: {} });
  const text = (result.content as Array<{ text?: string }>)[0]?.text;
  if (text?.length !== RESULT_BYTES)
    throw new RangeError(`call ${call} got ${text?.length ?? 'no'} characters`);
}

/**
 * `calls` calls of a 500 kB result in one stateful session (SSE responses, so every result is an event);
 * what the process holds is read after the first call (every module loaded, the session open) and after the
 * last, each time after a full GC.
 */
async function callMany(
  mcpUrl: string,
  calls: number,
  gc: () => void,
  afterCalls: () => Promise<void>,
): Promise<{ client: Client; seconds: number; grown: number; grownAfterWindow: number }> {
  const client = new Client({ name: 'event-store-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  await callReport(client, 0);
  const before = heldBytes(gc);
  const started = performance.now();
  for (let call = 1; call < calls; call += 1) await callReport(client, call);
  const seconds = (performance.now() - started) / 1000;
  const grown = heldBytes(gc) - before;
  await afterCalls();
  // Once the resume window passed, the calls' streams are released: what stays is the byte-bounded log alone.
  await new Promise((resolve) => setTimeout(resolve, DEFAULT_RESUME_WINDOW_MS + 2000));
  return { client, seconds, grown, grownAfterWindow: heldBytes(gc) - before };
}

/**
 * 1,000 calls of a 500 kB result in one session, with the in-memory store and with Redis: how much the
 * process (heap + external, after a full GC, with the session still open) and Redis (every key under the
 * server's prefix) hold afterwards, against the per-session byte bound (`maxEventStoreBytesPerSession`).
 */
export async function measureEventStoreMemory(redis: RedisServerHandle): Promise<BenchRow[]> {
  const calls = Number(process.env.SERVE_SCALE_EVENT_CALLS ?? 1000);
  const bound = DEFAULT_MAX_STORED_EVENT_BYTES;
  const gc = collectGarbage();
  const rows: BenchRow[] = [];
  for (const store of ['memory', 'redis'] as const) {
    const prefix = `${redis.keyPrefix}events-bench:`;
    const handle = await startAgentServer(buildReportAgent(), {
      url: 'http://127.0.0.1:0',
      sessionMode: 'stateful',
      ...(store === 'redis' ? { redis: redis.url, redisKeyPrefix: prefix } : {}),
    });
    try {
      // What Redis holds right after the calls (the most the bound has to hold back), then once the window passed.
      let peak: Awaited<ReturnType<typeof redisBytes>> | undefined;
      const { client, seconds, grown, grownAfterWindow } = await callMany(
        handle.mcpUrl,
        calls,
        gc,
        async () => {
          if (store === 'redis') peak = await redisBytes(redis.url, prefix);
        },
      );
      const label = store === 'memory' ? 'in-memory event store' : 'Redis event store';
      rows.push({
        group: GROUP,
        name: `event store, ${label}: process heap + external growth after ${calls} calls of a 500 kB result in one session`,
        value: grown / MiB,
        unit: 'MiB',
        ratio: grown / bound,
        note: `ratio = ÷ the per-session bound (${bound / MiB} MiB, the default maxEventStoreBytesPerSession); target ≤ 1×: ${grown <= bound ? 'met' : 'NOT met'}; ${((calls * RESULT_BYTES) / MiB).toFixed(0)} MiB went through in ${seconds.toFixed(1)} s; measured after a full GC with the session open; ${(grownAfterWindow / MiB).toFixed(2)} MiB once the ${DEFAULT_RESUME_WINDOW_MS / 1000} s resume window passed (the calls' released streams gone)`,
      });
      if (store === 'redis' && peak) {
        const after = await redisBytes(redis.url, prefix);
        rows.push({
          group: GROUP,
          name: `event store, Redis: memory of the event log's keys right after ${calls} calls of a 500 kB result in one session`,
          value: peak.logBytes / MiB,
          unit: 'MiB',
          ratio: peak.logBytes / bound,
          note: `ratio = ÷ the per-session bound (${bound / MiB} MiB); target ≤ 1×: ${peak.logBytes <= bound ? 'met' : 'NOT met'}; MEMORY USAGE of its ${peak.logKeys} keys summed; every key under the prefix (session record, call leases too): ${(peak.bytes / MiB).toFixed(2)} MiB in ${peak.keys} keys; once the resume window passed: ${(after.logBytes / MiB).toFixed(2)} MiB in ${after.logKeys} log keys`,
        });
      }
      await client.close();
    } finally {
      await handle.close();
    }
  }
  return rows;
}
