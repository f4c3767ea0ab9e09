// The serving group measured the way users see it: every server in its own process, driven by a separate
// load generator (wrk), against a bare node:http floor and the bare MCP SDK peer in the same run.
// Env: SERVE_LOAD_SECONDS (one measured run, default 5), SERVE_LOAD_RUNS (measured runs per server, back to
// back after the warm-up, default 3; the rows use their median), SERVE_LOAD_WARMUP_SECONDS (default 5),
// SERVE_LOAD_CONNECTIONS (default 50), SERVE_LOAD_CHECK_ALL=1 (read and check every body in the measured
// runs too; slows the generator down).
import { loadavg } from 'node:os';
import { startChildServer } from './serve-load/child-server';
import { measure, pickGenerator, readServeLoadSettings } from './serve-load/measure-server';
import { SERVER_KINDS, isStateful } from './serve-load/server-kind';
import type { ServerKind } from './serve-load/server-kind';
import { SERVER_LABELS, serveLoadRows, skippedRow } from './serve-load/serve-load-rows';
import type { ServerMeasurement } from './serve-load/serve-load-rows';
import type { BenchRow } from './measure';

/**
 * Serving under load from a separate process: calls/s and p50/p99/p99.9 of a JSON-RPC `tools/call` of a
 * two-integer `add`, for the bare node:http floor, the bare MCP SDK peer and `protolink serve` stateless and
 * stateful, with and without a bearer token, each server in its own child process (all killed at the end).
 */
export async function runServeLoadBench(): Promise<BenchRow[]> {
  const generator = pickGenerator();
  if (typeof generator === 'string') return [skippedRow('serving under load', generator)];
  const settings = readServeLoadSettings();
  const loadBefore = loadavg()[0];
  const rows: BenchRow[] = [];
  const started = await Promise.allSettled(SERVER_KINDS.map((kind) => startChildServer(kind)));
  const servers = started.flatMap((entry) => (entry.status === 'fulfilled' ? [entry.value] : []));
  const measurements: ServerMeasurement[] = [];
  try {
    for (const [index, entry] of started.entries()) {
      const kind: ServerKind = SERVER_KINDS[index];
      if (entry.status === 'rejected') {
        rows.push(skippedRow(SERVER_LABELS[kind], `did not start: ${(entry.reason as Error).message}`));
        continue;
      }
      const reason = generator.unsupported({ stateful: isStateful(kind) });
      if (reason) {
        rows.push(skippedRow(SERVER_LABELS[kind], reason));
        continue;
      }
      process.stderr.write(`bench: serve-load: ${kind}…\n`);
      try {
        measurements.push(await measure(entry.value, generator, settings));
      } catch (error) {
        rows.push(skippedRow(SERVER_LABELS[kind], `failed: ${(error as Error).message}`));
      }
    }
    // The floor again, last: how far the machine drifted while the others ran (the rows use all its runs).
    const floorServer = servers.find((server) => server.kind === 'floor');
    if (floorServer && measurements.some((entry) => entry.kind === 'floor')) {
      process.stderr.write('bench: serve-load: floor again…\n');
      try {
        measurements.push(await measure(floorServer, generator, settings));
      } catch (error) {
        rows.push(
          skippedRow(`${SERVER_LABELS.floor}, measured again last`, `failed: ${(error as Error).message}`),
        );
      }
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
  const loadAfter = loadavg()[0];
  return [
    {
      group: 'serve-load',
      name: `setup: ${generator.name}, 1 thread, ${settings.connections} connections, per server ${settings.warmUpSeconds} s checked warm-up + ${settings.runs} runs of ${settings.seconds} s measured back to back, medians reported (the floor first and last)`,
      value: loadBefore,
      unit: 'load avg (1 min)',
      note: `load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after; each server in its own process; ratios compare servers of this run`,
    },
    ...serveLoadRows(measurements),
    ...rows,
  ];
}
