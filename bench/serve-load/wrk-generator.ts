import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { LoadGenerator, LoadResult, LoadRunOptions } from './load-generator';
import { runProcess } from './load-generator';
import { PROTOCOL_VERSION } from './mcp-requests';

interface WrkJson {
  requests: number;
  durationMicros: number;
  p50Micros: number;
  p99Micros: number;
  p999Micros: number;
  non2xx: number;
  connectErrors: number;
  readErrors: number;
  writeErrors: number;
  timeouts: number;
  checked: number;
  wrong: number;
  sample: string;
}

/** Finds an executable on PATH (no shell involved). */
export function findOnPath(name: string): string | undefined {
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    if (!directory) continue;
    const candidate = join(directory, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * `wrk`, one thread, driven by `tools-call.lua`: a fresh JSON-RPC id per request, sessions in turn, and a
 * `done` hook printing p50/p99/p99.9 from wrk's own latency histogram as one JSON line. The timeout is
 * raised to 60 s so a slow tail is measured instead of being dropped as timeouts.
 */
export function wrkGenerator(binary: string): LoadGenerator {
  return {
    name: 'wrk',
    unsupported: () => undefined,
    async run(options: LoadRunOptions): Promise<LoadResult> {
      const args = [
        '-t1',
        `-c${options.connections}`,
        `-d${options.seconds}s`,
        '--timeout',
        '60s',
        '--latency',
        '-s',
        join(__dirname, 'tools-call.lua'),
        options.url,
        '--',
        options.checkBodies ? 'check' : 'measure',
        PROTOCOL_VERSION,
        options.token ?? '-',
        options.sessionIds && options.sessionIds.length > 0 ? options.sessionIds.join(',') : '-',
      ];
      const stdout = await runProcess(binary, args, (options.seconds + 90) * 1000);
      const line = /^SERVE_LOAD_RESULT (.*)$/m.exec(stdout)?.[1];
      if (!line) throw new RangeError(`wrk printed no result line: ${stdout.slice(-500)}`);
      const result = JSON.parse(line) as WrkJson;
      return {
        callsPerSecond: result.requests / (result.durationMicros / 1e6),
        p50Ms: result.p50Micros / 1000,
        p99Ms: result.p99Micros / 1000,
        p999Ms: result.p999Micros / 1000,
        requests: result.requests,
        non2xx: result.non2xx,
        socketErrors: result.connectErrors + result.readErrors + result.writeErrors + result.timeouts,
        checked: result.checked,
        wrong: result.wrong,
        sample: result.sample,
      };
    },
  };
}
