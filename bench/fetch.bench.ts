// fetch_url against local servers on 127.0.0.1 (through the resolver/connector seams): peak memory growth
// against an endless response (must stay flat: the body is refused at 1,000,000 bytes while streaming) and
// throughput on small and 100 KB pages.
import * as http from 'node:http';
import * as net from 'node:net';
import { fetchUrl } from '../lib/builtins/fetch-url/fetch-url';
import type { BenchRow } from './measure';

const PUBLIC_ADDRESS = '93.184.216.34';
const MB = 1024 * 1024;

function startServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const small = '<html><head><title>t</title></head><body><p>hello</p></body></html>';
  const large = `<html><body>${'<p>lorem ipsum dolor sit amet, consectetur adipiscing elit</p>'.repeat(1_700)}</body></html>`;
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const server = http.createServer((request, response) => {
    if (request.url === '/endless') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const pump = (): void => {
        while (!response.destroyed && response.write(chunk));
      };
      response.on('drain', pump);
      pump();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(request.url === '/large' ? large : small);
  });
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      }),
    ),
  );
}

async function measureThroughput(call: () => Promise<unknown>, iterations: number): Promise<number> {
  for (let index = 0; index < 20; index += 1) await call();
  const start = process.hrtime.bigint();
  for (let index = 0; index < iterations; index += 1) await call();
  return iterations / (Number(process.hrtime.bigint() - start) / 1e9);
}

/** Runs the fetch_url benchmarks and returns their rows. */
export async function runFetchBench(): Promise<BenchRow[]> {
  const server = await startServer();
  try {
    const tool = fetchUrl({
      resolver: async () => [PUBLIC_ADDRESS],
      connector: () => net.connect(server.port, '127.0.0.1'),
    });
    const rows: BenchRow[] = [];

    const endlessRuns = 40;
    const endless = (): Promise<unknown> =>
      tool.call({ url: 'http://bench.example/endless' }).catch((error: unknown) => error);
    // Warm up (module loading, JIT, first buffers) so the baseline measures the steady state.
    for (let index = 0; index < 5; index += 1) await endless();
    (globalThis as { gc?: () => void }).gc?.();
    const baseline = process.memoryUsage();
    let peakRss = baseline.rss;
    let peakHeap = baseline.heapUsed + baseline.external;
    const sampler = setInterval(() => {
      const usage = process.memoryUsage();
      peakRss = Math.max(peakRss, usage.rss);
      peakHeap = Math.max(peakHeap, usage.heapUsed + usage.external);
    }, 2);
    let refused = 0;
    for (let index = 0; index < endlessRuns; index += 1) {
      if ((await endless()) instanceof Error) refused += 1;
    }
    clearInterval(sampler);
    rows.push({
      group: 'builtins',
      name: `fetch_url endless response, peak RSS growth over ${endlessRuns} calls (${refused} refused at 1,000,000 bytes)`,
      value: (peakRss - baseline.rss) / MB,
      unit: 'MB',
      note: 'target < 20 MB (flat)',
    });
    rows.push({
      group: 'builtins',
      name: 'fetch_url endless response, peak heap + external growth',
      value: (peakHeap - baseline.heapUsed - baseline.external) / MB,
      unit: 'MB',
      note: 'target < 20 MB (flat)',
    });

    rows.push({
      group: 'builtins',
      name: 'fetch_url small HTML page (local server, sequential)',
      value: await measureThroughput(() => tool.call({ url: 'http://bench.example/small' }), 300),
      unit: 'calls/s',
    });
    rows.push({
      group: 'builtins',
      name: 'fetch_url 100 KB HTML page (local server, sequential)',
      value: await measureThroughput(() => tool.call({ url: 'http://bench.example/large' }), 100),
      unit: 'calls/s',
    });
    return rows;
  } finally {
    await server.close();
  }
}
