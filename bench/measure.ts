/** One row of the benchmark report. */
export interface BenchRow {
  /** Which group the row belongs to (validation, agent, mcp, builtins…). */
  group: string;
  /** What was measured. */
  name: string;
  /** The measured value. */
  value: number;
  /** Its unit (`µs/call`, `calls/s`, `MB`, `ms`). */
  unit: string;
  /** Ratio against the row's baseline (floor or peer) measured in the same run, when there is one. */
  ratio?: number;
  /** What the ratio compares against, and the target. */
  note?: string;
}

/** Measures the mean cost of one call in microseconds (warm-up, then the fastest of several rounds). */
export async function measureMicros(
  run: () => unknown,
  options: { iterations?: number; rounds?: number } = {},
): Promise<number> {
  const iterations = options.iterations ?? 20_000;
  const rounds = options.rounds ?? 5;
  for (let index = 0; index < Math.min(iterations, 5_000); index += 1) await run();
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round += 1) {
    const start = process.hrtime.bigint();
    for (let index = 0; index < iterations; index += 1) await run();
    const elapsed = Number(process.hrtime.bigint() - start) / 1000;
    best = Math.min(best, elapsed / iterations);
  }
  return best;
}

/** Measures a synchronous function the same way, without awaiting (for sub-microsecond floors). */
export function measureSyncMicros(
  run: () => unknown,
  options: { iterations?: number; rounds?: number } = {},
): number {
  const iterations = options.iterations ?? 200_000;
  const rounds = options.rounds ?? 5;
  for (let index = 0; index < Math.min(iterations, 20_000); index += 1) run();
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round += 1) {
    const start = process.hrtime.bigint();
    for (let index = 0; index < iterations; index += 1) run();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1000 / iterations);
  }
  return best;
}

/** Says whether a measured ratio meets its target, for the report's note (`target ≤ 5×: met`). */
export function judge(ratio: number, comparison: '≤' | '≥', target: number): string {
  const met = comparison === '≤' ? ratio <= target : ratio >= target;
  return `target ${comparison} ${target}×: ${met ? 'met' : 'NOT met'} (${ratio.toFixed(1)}×)`;
}
