import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type * as net from 'node:net';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { fetchUrl } from '../../../lib/builtins/fetch-url/fetch-url';
import {
  PUBLIC_V4,
  buildTestSeams,
  startHttpTestServer,
  startRawTestServer,
} from '../../fixtures/net/test-http-server';
import type { TestServer } from '../../fixtures/net/test-http-server';

const DEADLINE_MS = 1_500;
const timers = new Set<NodeJS.Timeout>();

function every(ms: number, run: () => void): NodeJS.Timeout {
  const timer = setInterval(run, ms);
  timers.add(timer);
  return timer;
}

let http: TestServer;
let raw: TestServer;

/** Raw responses keyed by request path, for framing no HTTP server library would produce. */
const RAW: Record<string, string | ((socket: net.Socket) => void)> = {
  '/duplicate-length':
    'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!',
  '/same-length-twice':
    'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello',
  '/invalid-length': 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: abc\r\n\r\nhello',
  '/negative-length': 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: -1\r\n\r\nhello',
  '/length-and-chunked':
    'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
  '/bad-chunk-size':
    'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n',
  '/chunk-overflow':
    'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\nhello\r\n0\r\n\r\n',
  '/short-body': (socket) => {
    socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nonly ten b');
    socket.end();
  },
  '/huge-header': `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Big: ${'a'.repeat(20_000)}\r\nContent-Length: 2\r\n\r\nok`,
  '/many-headers': `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n${'X-Header-Name: value-value\r\n'.repeat(2_000)}Content-Length: 2\r\n\r\nok`,
  '/not-http': 'SSH-2.0-OpenSSH_9.6\r\n\r\n',
  '/reset': (socket) => socket.destroy(),
  '/silent': () => undefined,
  '/trickle-headers': (socket) => {
    const header = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n';
    let index = 0;
    every(100, () => {
      if (!socket.destroyed) socket.write(header[index % header.length]);
      index += 1;
    });
  },
};

/** Compressed bodies (bombs of 50 MB of zeros), built once. */
const ENCODED: Record<string, [string, Buffer]> = {};

beforeAll(async () => {
  const zeros = Buffer.alloc(50_000_000);
  Object.assign(ENCODED, {
    '/gzip': ['gzip', gzipSync('hello')],
    '/gzip-bomb': ['gzip', gzipSync(zeros, { level: 1 })],
    '/brotli-bomb': [
      'br',
      brotliCompressSync(zeros, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } }),
    ],
    '/double-gzip': ['gzip, gzip', gzipSync(gzipSync('hello'))],
    '/deflate': ['deflate', Buffer.from('x')],
    '/compress': ['compress', Buffer.from('x')],
    '/x-gzip': ['x-gzip', gzipSync('hello')],
    '/zstd': ['zstd', Buffer.from('x')],
    '/unknown-encoding': ['klingon', Buffer.from('x')],
  });
  http = await startHttpTestServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/declared-too-large') {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2000000' });
      response.write('x');
      return;
    }
    if (path === '/oversized') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(Buffer.alloc(1_000_001, 0x61));
      return;
    }
    if (path === '/exactly-limit') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(Buffer.alloc(1_000_000, 0x61));
      return;
    }
    if (path === '/endless') {
      response.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = (): void => {
        while (!response.destroyed && response.write(chunk));
      };
      response.on('drain', pump);
      pump();
      return;
    }
    if (path === '/trickle-body') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      every(100, () => response.write('a'));
      return;
    }
    const encoded = ENCODED[path];
    if (encoded !== undefined) {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': encoded[0] });
      response.end(encoded[1]);
      return;
    }
    const types: Record<string, [string | null, Buffer]> = {
      '/png': ['image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
      '/octet-stream': ['application/octet-stream', Buffer.from('data')],
      '/pdf': ['application/pdf', Buffer.from('%PDF-1.7')],
      '/zip': ['application/zip', Buffer.from('PK\u0003\u0004')],
      '/mp4': ['video/mp4', Buffer.from('....ftyp')],
      '/javascript': ['application/javascript', Buffer.from('alert(1)')],
      '/wasm': ['application/wasm', Buffer.from('\u0000asm')],
      '/bare-type': ['text', Buffer.from('hello')],
      '/empty-type': ['', Buffer.from('hello')],
      '/no-type': [null, Buffer.from('hello')],
      '/nul-bytes': ['text/plain', Buffer.from('he\u0000llo')],
      '/unknown-charset': ['text/plain; charset=x-klingon', Buffer.from('hello')],
      '/quoted-unknown-charset': ['text/html; charset="utf-9"', Buffer.from('hello')],
    };
    const typed = types[path];
    if (typed !== undefined) {
      response.writeHead(200, typed[0] === null ? {} : { 'content-type': typed[0] });
      response.end(typed[1]);
      return;
    }
    const status = /^\/status\/(\d+)$/u.exec(path);
    if (status !== null) {
      response.writeHead(Number(status[1]), { 'content-type': 'text/plain' });
      response.end('status body');
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not found');
  });
  raw = await startRawTestServer((socket, head) => {
    const path = head.split(' ')[1] ?? '';
    const answer = RAW[path];
    if (typeof answer === 'string') socket.end(answer);
    else if (answer !== undefined) answer(socket);
    else socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
  });
});

afterEach(() => {
  for (const timer of timers) clearInterval(timer);
  timers.clear();
});

afterAll(async () => {
  await http.close();
  await raw.close();
});

function buildTool(server: () => TestServer): ReturnType<typeof fetchUrl> {
  const seams = buildTestSeams({ 'site.example': [PUBLIC_V4] }, {});
  return fetchUrl({
    resolver: seams.resolver,
    connector: (target) => buildTestSeams({}, { [target.address]: server() }).connector(target),
    timeoutMs: DEADLINE_MS,
  });
}

/** Calls the tool and checks it fails with ToolRuntimeError (message matching `pattern`) within the deadline. */
async function expectRuntimeError(
  server: () => TestServer,
  path: string,
  pattern: RegExp,
): Promise<ToolRuntimeError> {
  const started = Date.now();
  let caught: unknown;
  await buildTool(server)
    .call({ url: `http://site.example${path}` })
    .catch((error: unknown) => {
      caught = error;
    });
  expect(caught).toBeInstanceOf(ToolRuntimeError);
  expect((caught as Error).message).toMatch(pattern);
  // The deadline bounds every failure (with slack for a loaded machine); this is a bound, not a speed test.
  expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 3_000);
  return caught as ToolRuntimeError;
}

describe('fetchUrl', () => {
  describe('call (hostile responses)', () => {
    it.each([
      ['/declared-too-large', /larger than the limit of 1000000 bytes/u],
      ['/oversized', /larger than the limit of 1000000 bytes/u],
      ['/endless', /larger than the limit of 1000000 bytes/u],
    ])('refuses the over-limit body of %s', async (path, pattern) => {
      await expectRuntimeError(() => http, path, pattern);
    });

    it('reads a body of exactly 1,000,000 bytes', async () => {
      const result = (await buildTool(() => http).call({
        url: 'http://site.example/exactly-limit',
        max_chars: 5,
      })) as {
        text: string;
        truncated: boolean;
      };
      expect(result).toMatchObject({ text: 'aaaaa', truncated: true });
    });

    it.each([
      ['/trickle-body', /did not finish within the 1500 ms deadline/u],
      ['/silent', /did not finish within the 1500 ms deadline/u],
      ['/trickle-headers', /did not finish within the 1500 ms deadline/u],
    ])('stops the slow response of %s at the deadline', async (path, pattern) => {
      const server = path === '/trickle-body' ? (): TestServer => http : (): TestServer => raw;
      const error = await expectRuntimeError(server, path, pattern);
      expect(error.retryable).toBe(true);
    });

    it.each([
      ['/gzip', 'gzip'],
      ['/gzip-bomb', 'gzip'],
      ['/brotli-bomb', 'br'],
      ['/double-gzip', 'gzip, gzip'],
      ['/deflate', 'deflate'],
      ['/compress', 'compress'],
      ['/x-gzip', 'x-gzip'],
      ['/zstd', 'zstd'],
      ['/unknown-encoding', 'klingon'],
    ])('refuses the compressed body of %s without decompressing it', async (path, encoding) => {
      await expectRuntimeError(
        () => http,
        path,
        new RegExp(
          `Content-Encoding '${encoding}' although only identity was accepted; compressed bodies are never decompressed`,
          'u',
        ),
      );
    });

    it.each([
      '/duplicate-length',
      '/same-length-twice',
      '/invalid-length',
      '/negative-length',
      '/length-and-chunked',
      '/bad-chunk-size',
      '/chunk-overflow',
      '/huge-header',
      '/many-headers',
      '/not-http',
    ])('refuses the malformed HTTP framing of %s', async (path) => {
      await expectRuntimeError(
        () => raw,
        path,
        /sent a malformed HTTP response \(HPE_[A-Z_]+\); it was refused\./u,
      );
    });

    it.each([
      ['/short-body', /closed before the response was complete/u],
      ['/reset', /closed before the response was complete|socket hang up/u],
    ])('reports the connection cut of %s', async (path, pattern) => {
      await expectRuntimeError(() => raw, path, pattern);
    });

    it.each([
      ['/png', /'image\/png', which is not a text content type/u],
      ['/octet-stream', /'application\/octet-stream', which is not a text content type/u],
      ['/pdf', /'application\/pdf', which is not a text content type/u],
      ['/zip', /'application\/zip', which is not a text content type/u],
      ['/mp4', /'video\/mp4', which is not a text content type/u],
      ['/javascript', /'application\/javascript', which is not a text content type/u],
      ['/wasm', /'application\/wasm', which is not a text content type/u],
      ['/bare-type', /'text', which is not a text content type/u],
      ['/empty-type', /sent no Content-Type/u],
      ['/no-type', /sent no Content-Type/u],
      ['/nul-bytes', /is labelled 'text\/plain' but holds binary data \(NUL bytes\)/u],
      ['/unknown-charset', /declares the unknown charset 'x-klingon'/u],
      ['/quoted-unknown-charset', /declares the unknown charset 'utf-9'/u],
    ])('refuses the binary or undecodable response of %s', async (path, pattern) => {
      await expectRuntimeError(() => http, path, pattern);
    });

    it.each([
      [404, false],
      [403, false],
      [410, false],
      [429, true],
      [500, true],
      [503, true],
      [300, false],
      [304, false],
    ])('reports HTTP status %d with retryable %s', async (status, retryable) => {
      const error = await expectRuntimeError(
        () => http,
        `/status/${status}`,
        new RegExp(`answered with HTTP status ${status}\\.$`, 'u'),
      );
      expect(error.status).toBe(status);
      expect(error.retryable).toBe(retryable);
    });

    it('reports a refused connection', async () => {
      const tool = fetchUrl({
        resolver: async () => [PUBLIC_V4],
        connector: buildTestSeams({}, {}).connector,
        timeoutMs: DEADLINE_MS,
      });
      await expect(tool.call({ url: 'http://site.example/' })).rejects.toThrow(
        /fetch_url: could not connect to 'site\.example' \(1 validated address tried, ECONNREFUSED\)\./u,
      );
    });
  });
});
