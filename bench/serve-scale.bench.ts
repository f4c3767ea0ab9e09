// Serving past one process, measured the way it is deployed: the servers in their own processes behind the
// project's round-robin proxy (no session affinity: every request of a session may land on any process),
// driven by wrk, against a floor behind the same proxy that does only what a shared-state server cannot avoid
// (one Redis round trip per request). Then the event store's memory under 1,000 calls of a 500 kB result.
// Env: the SERVE_LOAD_* settings of the serve-load group; SERVE_SCALE_EVENT_CALLS (default 1000).
import { loadavg } from 'node:os';
import { findFreePort, findRedis, startRedisServer } from '../spec/fixtures/redis/redis-server';
import type { RedisServerHandle } from '../spec/fixtures/redis/redis-server';
import { startRoundRobinProxy } from '../spec/fixtures/round-robin-proxy';
import { measureEventStoreMemory } from './serve-scale/event-store-memory';
import { scaleRows } from './serve-scale/serve-scale-rows';
import type { ScaleMeasurement, ScaleSetup } from './serve-scale/serve-scale-rows';
import { startChildServer } from './serve-load/child-server';
import type { LoadGenerator } from './serve-load/load-generator';
import { measure, pickGenerator, readServeLoadSettings } from './serve-load/measure-server';
import type { ServeLoadSettings } from './serve-load/measure-server';
import { skippedRow } from './serve-load/serve-load-rows';
import type { BenchRow } from './measure';

const GROUP = 'serve-scale';

/** What is measured, in order; the floor again last, to see how far the machine drifted. */
const SETUPS: readonly ScaleSetup[] = [
  { id: 'floor', kind: 'floor-redis', processes: 2 },
  { id: 'redis', kind: 'stateful-redis', processes: 2 },
  { id: 'redis-one', kind: 'stateful-redis', processes: 1 },
  { id: 'memory', kind: 'stateful', processes: 1 },
  { id: 'floor', kind: 'floor-redis', processes: 2 },
];

async function measureBehindProxy(
  setup: ScaleSetup,
  redis: RedisServerHandle,
  proxyPort: number,
  generator: LoadGenerator,
  settings: ServeLoadSettings,
): Promise<ScaleMeasurement> {
  const env = {
    BENCH_REDIS_URL: redis.url,
    BENCH_REDIS_PREFIX: `${redis.keyPrefix}bench:`,
    // Clients reach the processes through the proxy: its origin is the one they must accept.
    BENCH_PUBLIC_URL: `http://127.0.0.1:${proxyPort}`,
  };
  const started = await Promise.allSettled(
    Array.from({ length: setup.processes }, () => startChildServer(setup.kind, 120_000, env)),
  );
  const servers = started.flatMap((entry) => (entry.status === 'fulfilled' ? [entry.value] : []));
  try {
    const failed = started.find((entry) => entry.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    const proxy = await startRoundRobinProxy({
      targets: servers.map((server) => new URL(server.url).origin),
      port: proxyPort,
    });
    try {
      process.stderr.write(`bench: serve-scale: ${setup.kind} ×${setup.processes}…\n`);
      const measured = await measure({ kind: setup.kind, url: proxy.mcpUrl }, generator, settings);
      return {
        setup,
        measured,
        requestsPerProcess: [...proxy.requestsPerTarget],
        badGateways: proxy.badGateways,
        errorAnswers: proxy.errorAnswers,
        errorSamples: proxy.errorSamples,
      };
    } finally {
      await proxy.close();
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/**
 * Stateful `tools/call` through the round-robin proxy: two `protolink serve --redis` processes against two
 * floor processes making one Redis round trip per request, and one in-memory process (what Redis costs);
 * then the event store's bound under 1,000 results of 500 kB, in the process and in Redis.
 */
export async function runServeScaleBench(): Promise<BenchRow[]> {
  const generator = pickGenerator();
  if (typeof generator === 'string')
    return [{ ...skippedRow('serving past one process', generator), group: GROUP }];
  const found = findRedis();
  if (found.mode === 'none') {
    return [
      {
        ...skippedRow('serving past one process', `${found.reason} (Debian: apt-get install redis-server)`),
        group: GROUP,
      },
    ];
  }
  const settings = readServeLoadSettings();
  const loadBefore = loadavg()[0];
  const redis = await startRedisServer();
  const rows: BenchRow[] = [];
  const measurements: ScaleMeasurement[] = [];
  try {
    const proxyPort = await findFreePort();
    for (const setup of SETUPS) {
      try {
        measurements.push(await measureBehindProxy(setup, redis, proxyPort, generator, settings));
      } catch (error) {
        rows.push({
          ...skippedRow(`${setup.kind} ×${setup.processes}`, `failed: ${(error as Error).message}`),
          group: GROUP,
        });
      }
    }
    process.stderr.write('bench: serve-scale: event-store memory…\n');
    rows.push(...(await measureEventStoreMemory(redis)));
  } finally {
    await redis.dispose();
  }
  const loadAfter = loadavg()[0];
  return [
    {
      group: GROUP,
      name: `setup: ${generator.name}, ${settings.connections} connections (one session each) through the round-robin proxy (in the bench process, no affinity), per setup ${settings.warmUpSeconds} s checked warm-up + ${settings.runs} runs of ${settings.seconds} s, medians reported`,
      value: loadBefore,
      unit: 'load avg (1 min)',
      note: `load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after; one redis-server started by the bench on loopback`,
    },
    ...scaleRows(measurements),
    ...rows,
  ];
}
