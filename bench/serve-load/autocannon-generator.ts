import type { LoadGenerator, LoadResult, LoadRunOptions } from './load-generator';
import { runProcess } from './load-generator';
import { ADD_ARGUMENTS, PROTOCOL_VERSION } from './mcp-requests';

interface AutocannonJson {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; p99_9?: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** Whether autocannon is installed where npx would find it without downloading (it is not a dependency). */
export function autocannonInstalled(): boolean {
  try {
    require.resolve('autocannon/package.json', { paths: [process.cwd()] });
    return true;
  } catch {
    return false;
  }
}

/**
 * The fallback when `wrk` is missing: autocannon's CLI in its own process (`npx --no-install`). Its CLI
 * sends one fixed request per connection (ids made unique with `[<id>]`), so it cannot give every
 * connection its own session: stateful servers are reported as skipped. It never reads bodies, so the
 * answer is checked by a request before the run.
 */
export function autocannonGenerator(): LoadGenerator {
  return {
    name: 'autocannon',
    unsupported: ({ stateful }) =>
      stateful ? 'autocannon cannot rotate MCP session ids per request (install wrk)' : undefined,
    async run(options: LoadRunOptions): Promise<LoadResult> {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: '[<id>]',
        method: 'tools/call',
        params: { name: 'add', arguments: ADD_ARGUMENTS },
      });
      const headers = [
        'content-type=application/json',
        'accept=application/json, text/event-stream',
        `mcp-protocol-version=${PROTOCOL_VERSION}`,
        ...(options.token ? [`authorization=Bearer ${options.token}`] : []),
      ];
      const args = [
        '--no-install',
        'autocannon',
        '--json',
        '-I',
        '-c',
        String(options.connections),
        '-d',
        String(options.seconds),
        '-t',
        '60',
        '-m',
        'POST',
        ...headers.flatMap((header) => ['-H', header]),
        '-b',
        body,
        options.url,
      ];
      const stdout = await runProcess('npx', args, (options.seconds + 90) * 1000);
      const line = stdout.trim().split('\n').pop() ?? '';
      const result = JSON.parse(line) as AutocannonJson;
      return {
        callsPerSecond: result.requests.average,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        p999Ms: result.latency.p99_9 ?? result.latency.max,
        requests: result.requests.total,
        non2xx: result.non2xx,
        socketErrors: result.errors + result.timeouts,
        checked: 0,
        wrong: 0,
        sample: '',
      };
    },
  };
}
