import type { BenchRow } from '../measure';
import type { LoadResult } from '../serve-load/load-generator';
import { combine, ms, problems } from '../serve-load/serve-load-rows';
import type { ServerMeasurement } from '../serve-load/serve-load-rows';
import type { ServerKind } from '../serve-load/server-kind';

const GROUP = 'serve-scale';

/** One configuration behind the proxy. */
export interface ScaleSetup {
  /** `floor`: the floor with one Redis round trip; `redis`: protolink sharing sessions; `memory`: one process. */
  readonly id: 'floor' | 'redis' | 'redis-one' | 'memory';
  readonly kind: ServerKind;
  readonly processes: number;
}

/** What one configuration measured, with how the proxy spread the requests. */
export interface ScaleMeasurement {
  readonly setup: ScaleSetup;
  readonly measured: ServerMeasurement;
  readonly requestsPerProcess: readonly number[];
  readonly badGateways: number;
  /** Answers of status 400 or more the proxy delivered, and the first few of them (see the proxy). */
  readonly errorAnswers: number;
  readonly errorSamples: readonly string[];
}

const LABELS: Record<ScaleSetup['id'], string> = {
  floor: 'floor: bare node:http JSON-RPC server + one Redis round trip per request, 2 processes',
  redis: 'protolink serve --redis (stateful, sessions shared through Redis), 2 processes',
  'redis-one': 'protolink serve --redis (stateful, sessions shared through Redis), 1 process',
  memory: 'protolink serve (stateful, in-memory sessions), 1 process',
};

/** The targets for the two-process Redis setup, against the floor. */
const SHARE_TARGET = 0.5;
const P99_TARGET = 3;

function verdict(met: boolean): string {
  return met ? 'met' : 'NOT met';
}

function merged(entries: readonly ScaleMeasurement[]): { result: LoadResult; warmUp: LoadResult } {
  return {
    result: combine(entries.flatMap((entry) => entry.measured.results)),
    warmUp: combine(entries.map((entry) => entry.measured.warmUp)),
  };
}

/**
 * Two rows per setup (calls/s as a share of the floor's, p99 as a multiple of the floor's), each statistic
 * the median of its runs (the floor's over its two turns), with the verdicts and how evenly the proxy
 * spread the requests over the processes.
 */
export function scaleRows(measurements: readonly ScaleMeasurement[]): BenchRow[] {
  const floorEntries = measurements.filter((entry) => entry.setup.id === 'floor');
  const floor = floorEntries.length > 0 ? merged(floorEntries).result : undefined;
  const memoryEntries = measurements.filter((entry) => entry.setup.id === 'memory');
  const memory = memoryEntries.length > 0 ? merged(memoryEntries).result : undefined;
  const rows: BenchRow[] = [];
  for (const id of ['floor', 'redis', 'redis-one', 'memory'] as const) {
    const entries = measurements.filter((entry) => entry.setup.id === id);
    if (entries.length === 0) continue;
    const { result, warmUp } = merged(entries);
    const runs = entries.flatMap((entry) => entry.measured.results);
    const notes = [
      `median of ${runs.length} runs (calls/s ${runs.map((run) => run.callsPerSecond.toFixed(0)).join(', ')})`,
      `requests per process ${entries.map((entry) => entry.requestsPerProcess.join('/')).join(', ')}`,
    ];
    const badGateways = entries.reduce((sum, entry) => sum + entry.badGateways, 0);
    if (badGateways > 0) notes.push(`${badGateways} answered 502 by the proxy`);
    const errorAnswers = entries.reduce((sum, entry) => sum + entry.errorAnswers, 0);
    if (errorAnswers > 0) {
      const samples = entries.flatMap((entry) => entry.errorSamples).slice(0, 3);
      notes.push(`${errorAnswers} error answers went through the proxy (first: ${samples.join(' | ')})`);
    }
    const share = floor && id !== 'floor' ? result.callsPerSecond / floor.callsPerSecond : undefined;
    if (id === 'redis' && share !== undefined) {
      notes.push(`ratio = share of the floor; target ≥ ${SHARE_TARGET}×: ${verdict(share >= SHARE_TARGET)}`);
    } else if (share !== undefined) notes.push('ratio = share of the floor');
    if (id === 'memory' && memory) {
      const redisEntries = measurements.filter((entry) => entry.setup.id === 'redis');
      if (redisEntries.length > 0) {
        const overMemory = merged(redisEntries).result.callsPerSecond / memory.callsPerSecond;
        notes.push(
          `what Redis costs: 2 processes with Redis make ${overMemory.toFixed(2)}× the calls/s of this one`,
        );
      }
    }
    notes.push(
      problems(result, warmUp) ??
        `${warmUp.checked} warm-up answers checked, ${result.requests} measured calls`,
    );
    rows.push({
      group: GROUP,
      name: `through the proxy: ${LABELS[id]}`,
      value: result.callsPerSecond,
      unit: 'calls/s',
      ratio: id === 'floor' ? 1 : share,
      note: notes.join('; '),
    });
    const p99Ratio = floor && id !== 'floor' ? result.p99Ms / floor.p99Ms : undefined;
    const latency = [`p50 ${ms(result.p50Ms)}, p99.9 ${ms(result.p999Ms)}`];
    if (id === 'redis' && p99Ratio !== undefined) {
      latency.push(
        `ratio = multiple of the floor's p99; target ≤ ${P99_TARGET}×: ${verdict(p99Ratio <= P99_TARGET)}`,
      );
    } else if (p99Ratio !== undefined) latency.push("ratio = multiple of the floor's p99");
    rows.push({
      group: GROUP,
      name: `through the proxy: ${LABELS[id]}: p99 latency`,
      value: result.p99Ms,
      unit: 'ms',
      ratio: id === 'floor' ? 1 : p99Ratio,
      note: latency.join('; '),
    });
  }
  return rows;
}
