import { ToolCancelledError } from '../../../lib/errors/tool-cancelled-error';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { UnsafeUrlError } from '../../../lib/errors/unsafe-url-error';
import { safeRequest } from '../../../lib/builtins/net/safe-request';
import type { SafeRequestOptions } from '../../../lib/builtins/net/safe-request';
import { PUBLIC_V4, buildTestSeams, startHttpTestServer } from '../../fixtures/net/test-http-server';
import type { RecordingSeams, TestServer } from '../../fixtures/net/test-http-server';

let server: TestServer;

beforeAll(async () => {
  server = await startHttpTestServer((request, response) => {
    switch (request.url) {
      case '/redirect':
        response.writeHead(302, { location: '/elsewhere', 'set-cookie': ['a=1', 'b=2'] });
        response.end('moved');
        return;
      case '/big':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(Buffer.alloc(2_000_001, 0x20));
        return;
      case '/gzip-error':
        response.writeHead(503, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        response.end('not really gzip');
        return;
      case '/headers':
        response.writeHead(200, { 'Content-Type': 'application/json', 'X-Custom': 'yes' });
        response.end(JSON.stringify(request.headers));
        return;
      case '/slow':
        setTimeout(() => response.end('late'), 1_000);
        return;
      default:
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('0123456789');
    }
  });
});

afterAll(async () => {
  await server.close();
});

function options(seams: RecordingSeams, extra: Partial<SafeRequestOptions> = {}): SafeRequestOptions {
  return {
    maxBytes: 2_000_000,
    timeoutMs: 5_000,
    maxRedirects: 0,
    truncate: false,
    provider: 'brave',
    resolver: seams.resolver,
    connector: seams.connector,
    ...extra,
  };
}

function buildSeams(): RecordingSeams {
  return buildTestSeams({ 'api.example': [PUBLIC_V4] }, { [PUBLIC_V4]: server });
}

describe('safeRequest', () => {
  it('returns status, lower-case headers, body bytes and the final URL', async () => {
    const response = await safeRequest('https://api.example/plain', options(buildSeams()));
    expect(response).toMatchObject({
      status: 200,
      url: 'https://api.example/plain',
      truncated: false,
      redirects: [],
    });
    expect(response.body.toString()).toBe('0123456789');
    expect(response.headers['content-type']).toBe('text/plain');
  });

  it('returns a redirect as it is when maxRedirects is 0, with repeated headers joined', async () => {
    const seams = buildSeams();
    const response = await safeRequest('https://api.example/redirect', options(seams));
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/elsewhere');
    expect(response.headers['set-cookie']).toBe('a=1, b=2');
    expect(seams.targets).toHaveLength(1);
  });

  it('keeps the caller Accept and User-Agent but always sends identity encoding and Connection: close', async () => {
    const response = await safeRequest(
      'https://api.example/headers',
      options(buildSeams(), {
        headers: {
          Accept: 'application/json',
          'User-Agent': 'test-agent',
          'Accept-Encoding': 'gzip, br',
          Connection: 'keep-alive',
          Cookie: 'session=1',
          Host: 'internal.example',
          'X-Subscription-Token': 'key',
        },
      }),
    );
    const sent = JSON.parse(response.body.toString()) as Record<string, string>;
    expect(sent).toMatchObject({
      accept: 'application/json',
      'user-agent': 'test-agent',
      'accept-encoding': 'identity',
      connection: 'close',
      host: 'api.example',
      'x-subscription-token': 'key',
    });
    expect(sent.cookie).toBeUndefined();
    expect(response.headers['x-custom']).toBe('yes');
  });

  it('throws ToolRuntimeError naming the provider when the body exceeds maxBytes and truncate is false', async () => {
    const call = safeRequest('https://api.example/big', options(buildSeams()));
    await expect(call).rejects.toThrow(ToolRuntimeError);
    await expect(call).rejects.toThrow('the response is larger than the limit of 2000000 bytes.');
    await call.catch((error: ToolRuntimeError) => expect(error.provider).toBe('brave'));
  });

  it('cuts the body at maxBytes and sets truncated when truncate is true', async () => {
    const response = await safeRequest(
      'https://api.example/big',
      options(buildSeams(), { truncate: true, maxBytes: 1000 }),
    );
    expect(response.body).toHaveLength(1000);
    expect(response.truncated).toBe(true);
  });

  it('passes a non-2xx body with a Content-Encoding through undecoded, so the status can be reported', async () => {
    const response = await safeRequest('https://api.example/gzip-error', options(buildSeams()));
    expect(response.status).toBe(503);
    expect(response.body.toString()).toBe('not really gzip');
  });

  it('throws UnsafeUrlError for a URL longer than maxUrlLength, before any lookup', async () => {
    const seams = buildSeams();
    const call = safeRequest('https://api.example/' + 'a'.repeat(100), options(seams, { maxUrlLength: 50 }));
    await expect(call).rejects.toThrow(UnsafeUrlError);
    await expect(call).rejects.toThrow('the URL has 120 characters, more than the limit of 50');
    expect(seams.lookups).toEqual([]);
  });

  it('throws UnsafeUrlError when the provider host resolves to a private address', async () => {
    const seams = buildTestSeams({ 'api.example': ['10.0.0.8'] }, { '10.0.0.8': server });
    const call = safeRequest('https://api.example/plain', options(seams));
    await expect(call).rejects.toThrow(UnsafeUrlError);
    await expect(call).rejects.toThrow(
      "the host 'api.example' resolves to 10.0.0.8, which is not public: private",
    );
    expect(seams.targets).toEqual([]);
  });

  it('throws ToolCancelledError with the reason when the signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop now')), 50);
    const call = safeRequest(
      'https://api.example/slow',
      options(buildSeams(), { signal: controller.signal, toolName: 'web_search' }),
    );
    await expect(call).rejects.toThrow(ToolCancelledError);
    await call.catch((error: ToolCancelledError) => {
      expect(error.reason).toBe('stop now');
      expect(error.message).toBe('web_search: the request to https://api.example/slow was cancelled.');
    });
  });

  it('throws a retryable ToolRuntimeError naming the provider when the deadline passes', async () => {
    const call = safeRequest('https://api.example/slow', options(buildSeams(), { timeoutMs: 200 }));
    await expect(call).rejects.toThrow(
      'the request to https://api.example/slow did not finish within the 200 ms deadline.',
    );
    await call.catch((error: ToolRuntimeError) => {
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect(error.retryable).toBe(true);
      expect(error.provider).toBe('brave');
    });
  });

  it('stops waiting for a resolver that never answers at the deadline', async () => {
    const seams = buildSeams();
    const call = safeRequest(
      'https://api.example/plain',
      options(seams, { timeoutMs: 200, resolver: () => new Promise(() => undefined) }),
    );
    await expect(call).rejects.toThrow('did not finish within the 200 ms deadline.');
    expect(seams.targets).toEqual([]);
  });

  it('ignores proxy environment variables and still connects only through the pinned connector', async () => {
    const saved = {
      HTTP_PROXY: process.env.HTTP_PROXY,
      HTTPS_PROXY: process.env.HTTPS_PROXY,
      http_proxy: process.env.http_proxy,
    };
    process.env.HTTP_PROXY = 'http://127.0.0.1:1';
    process.env.HTTPS_PROXY = 'http://127.0.0.1:1';
    process.env.http_proxy = 'http://127.0.0.1:1';
    try {
      const seams = buildSeams();
      const response = await safeRequest('http://api.example/plain', options(seams));
      expect(response.body.toString()).toBe('0123456789');
      expect(seams.targets).toEqual([{ address: PUBLIC_V4, port: 80, hostname: 'api.example', tls: false }]);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('ignores a polluted Object.prototype.proxy', async () => {
    const prototype = Object.prototype as { proxy?: unknown };
    prototype.proxy = { host: '127.0.0.1', port: 1, protocol: 'http' };
    try {
      const seams = buildSeams();
      await expect(safeRequest('http://api.example/plain', options(seams))).resolves.toMatchObject({
        status: 200,
      });
      expect(seams.targets).toHaveLength(1);
    } finally {
      delete prototype.proxy;
    }
  });
});
