import * as net from 'node:net';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { UnsafeUrlError } from '../../../lib/errors/unsafe-url-error';
import { openPinnedSocket } from '../../../lib/builtins/net/open-pinned-socket';
import { RequestDeadline } from '../../../lib/builtins/net/request-deadline';
import { PUBLIC_V4, PUBLIC_V4_B, startHttpTestServer } from '../../fixtures/net/test-http-server';
import type { TestServer } from '../../fixtures/net/test-http-server';

let server: TestServer;
const deadlines: RequestDeadline[] = [];

beforeAll(async () => {
  server = await startHttpTestServer((_request, response) => response.end('ok'));
});

afterEach(() => {
  for (const deadline of deadlines.splice(0)) deadline.dispose();
});

afterAll(async () => {
  await server.close();
});

function deadline(ms: number): RequestDeadline {
  const created = new RequestDeadline(ms);
  deadlines.push(created);
  return created;
}

/** A socket that says it is connecting and never connects (a black-holed address). */
function blackHole(): net.Socket {
  return Object.assign(new net.Socket(), { connecting: true });
}

describe('openPinnedSocket', () => {
  it('returns a socket connected to the validated address', async () => {
    const seen: string[] = [];
    const socket = await openPinnedSocket(new URL('http://site.example/'), {
      seams: {
        resolver: async () => [PUBLIC_V4],
        connector: (target) => {
          seen.push(`${target.address}:${target.port}`);
          return net.connect(server.port, '127.0.0.1');
        },
      },
      deadline: deadline(5_000),
    });
    expect(socket.readyState).toBe('open');
    expect(seen).toEqual([`${PUBLIC_V4}:80`]);
    socket.destroy();
  });

  it('moves on to the next address when an attempt hangs past its share of the deadline', async () => {
    const seen: string[] = [];
    const started = Date.now();
    const socket = await openPinnedSocket(new URL('https://site.example/'), {
      seams: {
        resolver: async () => [PUBLIC_V4_B, PUBLIC_V4],
        connector: (target) => {
          seen.push(target.address);
          return target.address === PUBLIC_V4_B ? blackHole() : net.connect(server.port, '127.0.0.1');
        },
      },
      deadline: deadline(1_000),
    });
    expect(seen).toEqual([PUBLIC_V4_B, PUBLIC_V4]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    socket.destroy();
  });

  it('throws ToolRuntimeError naming the host when no address connects', async () => {
    const call = openPinnedSocket(new URL('http://site.example/'), {
      seams: {
        resolver: async () => [PUBLIC_V4, PUBLIC_V4_B],
        connector: () => {
          throw Object.assign(new Error('nope'), { code: 'ENETUNREACH' });
        },
      },
      deadline: deadline(5_000),
      toolName: 'fetch_url',
      provider: 'brave',
    });
    await expect(call).rejects.toThrow(ToolRuntimeError);
    await expect(call).rejects.toThrow(
      "fetch_url: could not connect to 'site.example' (2 validated addresses tried, ENETUNREACH).",
    );
  });

  it('refuses a connector result that is not a live socket', async () => {
    const call = openPinnedSocket(new URL('http://site.example/'), {
      seams: { resolver: async () => [PUBLIC_V4], connector: () => new net.Socket() },
      deadline: deadline(5_000),
    });
    await expect(call).rejects.toThrow("could not connect to 'site.example' (1 validated address tried).");
    await call.catch((error: ToolRuntimeError) =>
      expect((error.cause as Error).message).toBe(
        'the connector returned a socket that is neither connected nor connecting',
      ),
    );
  });

  it('throws UnsafeUrlError and never calls the connector when the answer holds a private address', async () => {
    const connector = jest.fn();
    await expect(
      openPinnedSocket(new URL('http://site.example/'), {
        seams: { resolver: async () => [PUBLIC_V4, '192.168.0.1'], connector },
        deadline: deadline(5_000),
      }),
    ).rejects.toThrow(UnsafeUrlError);
    expect(connector).not.toHaveBeenCalled();
  });

  it('rejects with the deadline reason when the deadline passes during a hanging attempt', async () => {
    const short = deadline(100);
    await expect(
      openPinnedSocket(new URL('http://site.example/'), {
        seams: { resolver: async () => [PUBLIC_V4], connector: blackHole },
        deadline: short,
      }),
    ).rejects.toThrow('deadline of 100 ms passed');
    expect(short.timedOut).toBe(true);
  });
});
