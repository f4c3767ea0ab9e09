import type { BenchRow } from '../measure';
import type { LoadResult } from './load-generator';
import type { ServerKind } from './server-kind';

const GROUP = 'serve-load';

/** How the report names each server. */
export const SERVER_LABELS: Record<ServerKind, string> = {
  floor: 'bare node:http JSON-RPC server (floor)',
  'sdk-stateless': 'bare MCP SDK, stateless: McpServer + transport per request (peer)',
  stateless: 'protolink serve --stateless',
  stateful: 'protolink serve (stateful, one session per connection)',
  'stateless-token': 'protolink serve --stateless --token',
  'stateful-token': 'protolink serve --token (stateful)',
  'floor-redis': 'bare node:http JSON-RPC server making one Redis round trip per request (floor)',
  'stateful-redis': 'protolink serve --redis (stateful, sessions shared through Redis)',
};

/** The throughput target for a kind, as a share of the floor's calls/s (none for floor and peer). */
function floorShareTarget(kind: ServerKind): number | undefined {
  if (kind === 'floor' || kind === 'sdk-stateless' || kind === 'floor-redis') return undefined;
  return kind.startsWith('stateless') ? 0.5 : 0.4;
}

function verdict(met: boolean): string {
  return met ? 'met' : 'not met';
}

export function ms(value: number): string {
  return `${value.toFixed(value >= 100 ? 0 : 2)} ms`;
}

/** A measurement's correctness, said plainly; `undefined` when every check passed. */
export function problems(result: LoadResult, warmUp: LoadResult): string | undefined {
  const found: string[] = [];
  if (warmUp.wrong > 0)
    found.push(`${warmUp.wrong} of ${warmUp.checked} warm-up answers wrong (first: ${warmUp.sample})`);
  if (result.wrong > 0)
    found.push(`${result.wrong} of ${result.checked} measured answers wrong (first: ${result.sample})`);
  if (warmUp.non2xx + result.non2xx > 0) found.push(`${warmUp.non2xx + result.non2xx} non-2xx responses`);
  if (warmUp.socketErrors + result.socketErrors > 0) {
    found.push(`${warmUp.socketErrors + result.socketErrors} socket errors or timeouts`);
  }
  return found.length > 0 ? `NOT VALID: ${found.join('; ')}` : undefined;
}

/** The measured runs of one server, with the warm-up that checked its answers. */
export interface ServerMeasurement {
  readonly kind: ServerKind;
  readonly results: readonly LoadResult[];
  readonly warmUp: LoadResult;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Several runs as one: the median of each statistic, the counts summed, the first wrong answer kept. */
export function combine(results: readonly LoadResult[]): LoadResult {
  const pick = (read: (result: LoadResult) => number) => results.map(read);
  const total = (read: (result: LoadResult) => number) => pick(read).reduce((sum, value) => sum + value, 0);
  return {
    callsPerSecond: median(pick((result) => result.callsPerSecond)),
    p50Ms: median(pick((result) => result.p50Ms)),
    p99Ms: median(pick((result) => result.p99Ms)),
    p999Ms: median(pick((result) => result.p999Ms)),
    requests: total((result) => result.requests),
    non2xx: total((result) => result.non2xx),
    socketErrors: total((result) => result.socketErrors),
    checked: total((result) => result.checked),
    wrong: total((result) => result.wrong),
    sample: results.find((result) => result.sample)?.sample ?? '',
  };
}

/** One server's measurements merged (the floor is measured twice), and how far its runs spread. */
interface MergedMeasurement {
  readonly kind: ServerKind;
  readonly result: LoadResult;
  readonly warmUp: LoadResult;
  readonly spread: string;
}

function mergeRuns(measurements: readonly ServerMeasurement[]): MergedMeasurement[] {
  const byKind = new Map<ServerKind, ServerMeasurement[]>();
  for (const entry of measurements) byKind.set(entry.kind, [...(byKind.get(entry.kind) ?? []), entry]);
  return [...byKind].map(([kind, entries]) => {
    const results = entries.flatMap((entry) => entry.results);
    const runs = (of: readonly LoadResult[]) =>
      `calls/s ${of.map((result) => result.callsPerSecond.toFixed(0)).join(', ')}; p99 ${of
        .map((result) => ms(result.p99Ms))
        .join(', ')}`;
    const spread =
      entries.length === 1
        ? `median of ${results.length} runs (${runs(results)})`
        : `measured first (${runs(entries[0].results)}) and again last (${runs(
            entries[entries.length - 1].results,
          )}): the machine's drift during the run; median of all ${results.length} runs`;
    return {
      kind,
      result: combine(results),
      warmUp: combine(entries.map((entry) => entry.warmUp)),
      spread,
    };
  });
}

/**
 * Two rows per server, each statistic the median of its runs: calls/s (ratio: share of the floor's calls/s,
 * with the floor and SDK-peer targets) and p99 latency (ratio: multiple of the floor's p99, target ≤ 5×), with
 * p50 and p99.9 in the note.
 */
export function serveLoadRows(runs: readonly ServerMeasurement[]): BenchRow[] {
  const measurements = mergeRuns(runs);
  const floor = measurements.find((entry) => entry.kind === 'floor')?.result;
  const peer = measurements.find((entry) => entry.kind === 'sdk-stateless')?.result;
  const rows: BenchRow[] = [];
  for (const { kind, result, warmUp, spread } of measurements) {
    const label = SERVER_LABELS[kind];
    const checks = `${warmUp.checked} warm-up answers checked, ${result.requests} measured calls`;
    const invalid = problems(result, warmUp);
    const rateNotes: string[] = [];
    const share = floor ? result.callsPerSecond / floor.callsPerSecond : undefined;
    const target = floorShareTarget(kind);
    rateNotes.push(spread);
    if (kind === 'floor') rateNotes.push('the other rows compare with these medians');
    else if (share !== undefined) {
      rateNotes.push(
        target === undefined
          ? 'ratio = share of the floor'
          : `ratio = share of the floor; target ≥ ${target.toFixed(2)}×: ${verdict(share >= target)}`,
      );
    }
    if (target !== undefined && peer) {
      const overPeer = result.callsPerSecond / peer.callsPerSecond;
      rateNotes.push(`${overPeer.toFixed(2)}× the SDK peer (target ≥ 5×: ${verdict(overPeer >= 5)})`);
    }
    rateNotes.push(invalid ?? checks);
    rows.push({
      group: GROUP,
      name: `served from another process: ${label}`,
      value: result.callsPerSecond,
      unit: 'calls/s',
      ratio: share,
      note: rateNotes.join('; '),
    });
    const p99Ratio = floor ? result.p99Ms / floor.p99Ms : undefined;
    const latencyNotes = [`p50 ${ms(result.p50Ms)}, p99.9 ${ms(result.p999Ms)}`];
    if (p99Ratio !== undefined && kind !== 'floor') {
      latencyNotes.push(
        target === undefined
          ? "ratio = multiple of the floor's p99"
          : `ratio = multiple of the floor's p99; target ≤ 5×: ${verdict(p99Ratio <= 5)}`,
      );
    }
    rows.push({
      group: GROUP,
      name: `served from another process: ${label}: p99 latency`,
      value: result.p99Ms,
      unit: 'ms',
      ratio: p99Ratio,
      note: latencyNotes.join('; '),
    });
  }
  return rows;
}

/** A row saying a server (or the whole group) was not measured, and why. */
export function skippedRow(what: string, reason: string): BenchRow {
  return { group: GROUP, name: `skipped: ${what}`, value: Number.NaN, unit: '', note: reason };
}
