import { autocannonGenerator, autocannonInstalled } from './autocannon-generator';
import type { LoadGenerator, LoadResult } from './load-generator';
import { checkOneCall, openSessions } from './mcp-requests';
import { BENCH_TOKEN } from './protolink-server';
import { isStateful, needsToken } from './server-kind';
import type { ServerKind } from './server-kind';
import type { ServerMeasurement } from './serve-load-rows';
import { findOnPath, wrkGenerator } from './wrk-generator';

function envInteger(name: string, fallback: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new RangeError(`${name}='${raw}' must be a whole number from 1 to ${max}`);
  }
  return value;
}

/** How long and how hard each server is driven. */
export interface ServeLoadSettings {
  readonly seconds: number;
  readonly runs: number;
  readonly warmUpSeconds: number;
  readonly connections: number;
  readonly checkAll: boolean;
}

/** The settings from `SERVE_LOAD_SECONDS`, `_RUNS`, `_WARMUP_SECONDS`, `_CONNECTIONS` and `_CHECK_ALL`. */
export function readServeLoadSettings(): ServeLoadSettings {
  return {
    seconds: envInteger('SERVE_LOAD_SECONDS', 5, 600),
    runs: envInteger('SERVE_LOAD_RUNS', 3, 20),
    warmUpSeconds: envInteger('SERVE_LOAD_WARMUP_SECONDS', 5, 600),
    connections: envInteger('SERVE_LOAD_CONNECTIONS', 50, 1000),
    checkAll: process.env.SERVE_LOAD_CHECK_ALL === '1',
  };
}

/** wrk when on PATH, else autocannon when installed; otherwise why there is no generator. */
export function pickGenerator(): LoadGenerator | string {
  const wrk = findOnPath('wrk');
  if (wrk) return wrkGenerator(wrk);
  if (autocannonInstalled()) return autocannonGenerator();
  return 'wrk is not on PATH (Debian: apt-get install wrk) and autocannon is not installed; no load generator to drive the servers from another process';
}

/**
 * Measures one server (any `{ kind, url }`: a child process, or the proxy in front of several): opens its
 * sessions when stateful, checks one answer, runs a checked warm-up, then `runs` measured runs back to back,
 * and checks one answer again.
 */
export async function measure(
  server: { kind: ServerKind; url: string },
  generator: LoadGenerator,
  settings: ServeLoadSettings,
): Promise<ServerMeasurement> {
  const token = needsToken(server.kind) ? BENCH_TOKEN : undefined;
  const sessionIds = isStateful(server.kind)
    ? await openSessions(server.url, settings.connections, token)
    : undefined;
  const wrongBefore = await checkOneCall(server.url, token, sessionIds?.[0]);
  if (wrongBefore) throw new RangeError(`a single add(20, 22) call got ${wrongBefore}`);
  const base = { url: server.url, connections: settings.connections, token, sessionIds };
  const warmUp = await generator.run({ ...base, seconds: settings.warmUpSeconds, checkBodies: true });
  // Back to back, so the server never idles between them (after a pause V8 lets go of compiled code, and the
  // first second under load is slow again): the median of the runs then shrugs off one noisy spell.
  const results: LoadResult[] = [];
  for (let run = 0; run < settings.runs; run += 1) {
    results.push(await generator.run({ ...base, seconds: settings.seconds, checkBodies: settings.checkAll }));
  }
  const wrongAfter = await checkOneCall(server.url, token, sessionIds?.[0]);
  if (wrongAfter) throw new RangeError(`after the runs, a single add(20, 22) call got ${wrongAfter}`);
  return { kind: server.kind, results, warmUp };
}
