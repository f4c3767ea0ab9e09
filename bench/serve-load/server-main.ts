// Child-process entry of the serving bench: starts ONE server on 127.0.0.1 port 0, prints
// `LISTENING <url>` on stdout, and exits when its stdin closes (the bench ended or died) or on SIGTERM.
import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SCALE_SERVER_KINDS, SERVER_KINDS, isServerKind } from './server-kind';
import type { ServerKind } from './server-kind';

async function listenOnLoopback(
  server: Server,
  path: string,
): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function start(kind: ServerKind): Promise<{ url: string; close(): Promise<void> }> {
  switch (kind) {
    // Each kind loads only its own code: the floor process must not pay for Protolink or the SDK.
    case 'floor': {
      const { createFloorServer } = await import('./floor-server');
      return listenOnLoopback(createFloorServer(), '/mcp');
    }
    case 'floor-redis': {
      const { createFloorRedisServer } = await import('./floor-redis-server');
      const floor = await createFloorRedisServer(
        requiredEnv('BENCH_REDIS_URL'),
        requiredEnv('BENCH_REDIS_PREFIX'),
      );
      const listening = await listenOnLoopback(floor.server, '/mcp');
      return { url: listening.url, close: async () => (await listening.close(), await floor.close()) };
    }
    case 'sdk-stateless': {
      const { createSdkPeerServer } = await import('./sdk-peer-server');
      return listenOnLoopback(createSdkPeerServer(), '/mcp');
    }
    default: {
      const { startProtolinkServer } = await import('./protolink-server');
      const handle = await startProtolinkServer(
        kind.startsWith('stateless') ? 'stateless' : 'stateful',
        kind.endsWith('-token'),
        {
          redis: kind === 'stateful-redis' ? requiredEnv('BENCH_REDIS_URL') : undefined,
          redisKeyPrefix: kind === 'stateful-redis' ? requiredEnv('BENCH_REDIS_PREFIX') : undefined,
          publicUrl: process.env.BENCH_PUBLIC_URL || undefined,
        },
      );
      return { url: handle.mcpUrl, close: () => handle.close() };
    }
  }
}

/** An environment variable the scale-out kinds need (set by the scale-out bench). */
function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new RangeError(`serve-load server: ${name} must be set for this kind`);
  return value;
}

async function main(): Promise<void> {
  const kind = process.argv[2] ?? '';
  if (!isServerKind(kind)) {
    process.stderr.write(
      `serve-load server: unknown kind '${kind}' (one of ${[...SERVER_KINDS, ...SCALE_SERVER_KINDS].join(', ')})\n`,
    );
    process.exit(2);
  }
  const server = await start(kind);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // Bounded: exit even if a connection refuses to close.
    setTimeout(() => process.exit(0), 2000).unref();
    void server.close().finally(() => process.exit(0));
  };
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
  process.on('SIGTERM', stop);
  process.stdout.write(`LISTENING ${server.url}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`serve-load server failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
