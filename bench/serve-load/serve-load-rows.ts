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
};

/** The throughput target for a kind, as a share of the floor's calls/s (none for floor and peer). */
function floorShareTarget(kind: ServerKind): number | undefined {
  if (kind === 'floor' || kind === 'sdk-stateless') return undefined;
  return kind.startsWith('stateless') ? 0.5 : 0.4;
}

function verdict(met: boolean): string {
  return met ? 'met' : 'not met';
}

function ms(value: number): string {
  return `${value.toFixed(value >= 100 ? 0 : 2)} ms`;
}

/** A measurement's correctness, said plainly; `undefined` when every check passed. */
function problems(result: LoadResult, warmUp: LoadResult): string | undefined {
  const found: string[] = [];
  if (warmUp.wrong > 0)
    found.push(`${warmUp.wrong} of ${warmUp.checked} warm-up answers wrong (first: ${warmUp.sample})`);
  if (warmUp.non2xx + result.non2xx > 0) found.push(`${warmUp.non2xx + result.non2xx} non-2xx responses`);
  if (warmUp.socketErrors + result.socketErrors > 0) {
    found.push(`${warmUp.socketErrors + result.socketErrors} socket errors or timeouts`);
  }
  return found.length > 0 ? `NOT VALID: ${found.join('; ')}` : undefined;
}

/** The measurements of one server, with the warm-up that checked its answers. */
export interface ServerMeasurement {
  readonly kind: ServerKind;
  readonly result: LoadResult;
  readonly warmUp: LoadResult;
}

function mean(left: number, right: number): number {
  return (left + right) / 2;
}

/**
 * The floor is measured first and again last, to show how much the machine drifted during the run; its rows
 * (and every ratio) use the mean of both runs. Returns the measurements with one floor entry, and the drift.
 */
function mergeFloorRuns(measurements: readonly ServerMeasurement[]): {
  merged: ServerMeasurement[];
  drift?: string;
} {
  const floors = measurements.filter((entry) => entry.kind === 'floor');
  if (floors.length < 2) return { merged: [...measurements] };
  const [first, last] = [floors[0], floors[floors.length - 1]];
  const sum = (pick: (result: LoadResult) => number, of: 'result' | 'warmUp') =>
    pick(first[of]) + pick(last[of]);
  const combine = (of: 'result' | 'warmUp'): LoadResult => ({
    callsPerSecond: mean(first[of].callsPerSecond, last[of].callsPerSecond),
    p50Ms: mean(first[of].p50Ms, last[of].p50Ms),
    p99Ms: mean(first[of].p99Ms, last[of].p99Ms),
    p999Ms: mean(first[of].p999Ms, last[of].p999Ms),
    requests: sum((result) => result.requests, of),
    non2xx: sum((result) => result.non2xx, of),
    socketErrors: sum((result) => result.socketErrors, of),
    checked: sum((result) => result.checked, of),
    wrong: sum((result) => result.wrong, of),
    sample: first[of].sample || last[of].sample,
  });
  const merged = measurements.filter((entry) => entry.kind !== 'floor');
  merged.unshift({ kind: 'floor', result: combine('result'), warmUp: combine('warmUp') });
  const drift =
    `measured first (${first.result.callsPerSecond.toFixed(0)} calls/s, p99 ${ms(first.result.p99Ms)}) and ` +
    `last (${last.result.callsPerSecond.toFixed(0)} calls/s, p99 ${ms(last.result.p99Ms)}): the machine's drift during the run; the mean is used`;
  return { merged, drift };
}

/**
 * Two rows per server: calls/s (ratio: share of the floor's calls/s, with the floor and SDK-peer targets)
 * and p99 latency (ratio: multiple of the floor's p99, target ≤ 5×), with p50 and p99.9 in the note.
 */
export function serveLoadRows(runs: readonly ServerMeasurement[]): BenchRow[] {
  const { merged: measurements, drift } = mergeFloorRuns(runs);
  const floor = measurements.find((entry) => entry.kind === 'floor')?.result;
  const peer = measurements.find((entry) => entry.kind === 'sdk-stateless')?.result;
  const rows: BenchRow[] = [];
  for (const { kind, result, warmUp } of measurements) {
    const label = SERVER_LABELS[kind];
    const checks = `${warmUp.checked} warm-up answers checked, ${result.requests} measured calls`;
    const invalid = problems(result, warmUp);
    const rateNotes: string[] = [];
    const share = floor ? result.callsPerSecond / floor.callsPerSecond : undefined;
    const target = floorShareTarget(kind);
    if (kind === 'floor') rateNotes.push(drift ?? 'ratio = share of the floor');
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
