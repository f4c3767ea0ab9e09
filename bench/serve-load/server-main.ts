// Child-process entry of the serving bench: starts ONE server on 127.0.0.1 port 0, prints
// `LISTENING <url>` on stdout, and exits when its stdin closes (the bench ended or died) or on SIGTERM.
import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SERVER_KINDS } from './server-kind';
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
    case 'sdk-stateless': {
      const { createSdkPeerServer } = await import('./sdk-peer-server');
      return listenOnLoopback(createSdkPeerServer(), '/mcp');
    }
    default: {
      const { startProtolinkServer } = await import('./protolink-server');
      const handle = await startProtolinkServer(
        kind.startsWith('stateless') ? 'stateless' : 'stateful',
        kind.endsWith('-token'),
      );
      return { url: handle.mcpUrl, close: () => handle.close() };
    }
  }
}

async function main(): Promise<void> {
  const kind = process.argv[2] as ServerKind;
  if (!SERVER_KINDS.includes(kind)) {
    process.stderr.write(
      `serve-load server: unknown kind '${String(kind)}' (one of ${SERVER_KINDS.join(', ')})\n`,
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
