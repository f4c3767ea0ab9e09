import { inspect } from 'node:util';
import { ToolCancelledError } from '../../../lib/errors/tool-cancelled-error';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import type { NetworkSeams } from '../../../lib/builtins/net/network-seams';
import { webSearch } from '../../../lib/builtins/web-search/web-search';
import { readWebSearchFixture } from '../../fixtures/web-search/read-web-search-fixture';
import { SearchTestServer, generateTestCertificate } from '../../fixtures/web-search/search-test-server';
import type { CannedResponse } from '../../fixtures/web-search/search-test-server';

const KEY = 'BSA-leak-canary-0123456789abcdef';
const JSON_TYPE = { 'content-type': 'application/json' };
const HTML_TYPE = { 'content-type': 'text/html; charset=utf-8' };
const PREFIX = {
  brave: "web_search (engine 'brave', Brave Search): ",
  duckduckgo: "web_search (engine 'duckduckgo', DuckDuckGo): ",
  wikipedia: "web_search (engine 'wikipedia', Wikipedia): ",
};

let server: SearchTestServer;
let savedKey: string | undefined;

beforeAll(async () => {
  server = await SearchTestServer.start(generateTestCertificate());
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.reset();
  savedKey = process.env.BRAVE_SEARCH_API_KEY;
  process.env.BRAVE_SEARCH_API_KEY = KEY;
});

afterEach(() => {
  if (savedKey === undefined) delete process.env.BRAVE_SEARCH_API_KEY;
  else process.env.BRAVE_SEARCH_API_KEY = savedKey;
});

/** Runs one search that must fail and returns the error after checking it never shows the key. */
async function failure(
  args: Record<string, unknown>,
  canned: CannedResponse | null,
  seams: NetworkSeams = server.seams(),
  signal?: AbortSignal,
): Promise<Error> {
  if (canned !== null) server.respond = () => canned;
  let caught: unknown;
  try {
    await webSearch(seams).call(args, { signal });
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(Error);
  const error = caught as Error;
  expect(error.message).not.toContain(KEY);
  expect(JSON.stringify(error)).not.toContain(KEY);
  expect(inspect(error, { depth: Infinity, showHidden: true })).not.toContain(KEY);
  return error;
}

function expectProviderError(
  error: Error,
  provider: keyof typeof PREFIX,
  message: string | RegExp,
): ToolRuntimeError {
  expect(error).toBeInstanceOf(ToolRuntimeError);
  const runtime = error as ToolRuntimeError;
  expect(runtime.provider).toBe(provider);
  expect(runtime.toolName).toBe('web_search');
  expect(runtime.message.startsWith(PREFIX[provider])).toBe(true);
  if (typeof message === 'string') expect(runtime.message).toBe(`${PREFIX[provider]}${message}`);
  else expect(runtime.message).toMatch(message);
  return runtime;
}

describe('webSearch', () => {
  describe('call() when the provider fails', () => {
    it.each<[number, string, boolean]>([
      [
        401,
        'rejected the API key (HTTP 401). Check that BRAVE_SEARCH_API_KEY holds a valid, active subscription token.',
        false,
      ],
      [429, 'is rate limiting requests (HTTP 429). Wait before searching again.', true],
      [503, 'failed with HTTP 503. Try again later or use another engine.', true],
      [422, 'refused the request with HTTP 422. Check the query, or use another engine.', false],
    ])('throws ToolRuntimeError naming brave for HTTP %d', async (status, message, retryable) => {
      const error = await failure(
        { query: 'q' },
        { status, headers: JSON_TYPE, body: '{"type":"ErrorResponse","error":{"detail":"x"}}' },
      );
      const runtime = expectProviderError(error, 'brave', message);
      expect(runtime.status).toBe(status);
      expect(runtime.retryable).toBe(retryable);
    });

    it('does not follow a redirect from a fixed endpoint', async () => {
      const error = await failure(
        { query: 'q', engine: 'wikipedia' },
        { status: 302, headers: { location: 'https://en.wikipedia.org/elsewhere' } },
      );
      expectProviderError(
        error,
        'wikipedia',
        'answered with a redirect (HTTP 302); web_search never follows redirects from its fixed endpoints. Try again later or use another engine.',
      );
      expect(server.requests).toHaveLength(1);
      expect(server.connections).toBe(1);
    });

    it.each<[keyof typeof PREFIX, Record<string, unknown>]>([
      ['brave', { query: 'q' }],
      ['wikipedia', { query: 'q', engine: 'wikipedia' }],
    ])('throws ToolRuntimeError naming %s for a body that is not JSON', async (provider, args) => {
      const error = await failure(args, { headers: JSON_TYPE, body: '<html>oops</html>' });
      expectProviderError(
        error,
        provider,
        'returned a body that is not valid JSON. Try again later or use another engine.',
      );
    });

    it.each([
      ['[]', 'the top-level value is an array, not an object'],
      ['{"web":[]}', "'web' is an array, not an object"],
      ['{"web":{"results":{"0":{}}}}', "'web.results' is an object, not an array"],
    ])('throws ToolRuntimeError for the Brave payload %s', async (body, detail) => {
      const error = await failure({ query: 'q' }, { headers: JSON_TYPE, body });
      expectProviderError(
        error,
        'brave',
        `returned JSON of an unexpected shape (${detail}). The API may have changed; try again later or use another engine.`,
      );
    });

    it('throws ToolRuntimeError for a Wikipedia payload without a pages array', async () => {
      const error = await failure(
        { query: 'q', engine: 'wikipedia' },
        { headers: JSON_TYPE, body: '{"pages":null}' },
      );
      expectProviderError(
        error,
        'wikipedia',
        "returned JSON without a 'pages' array. The REST API may have changed; try again later or use another engine.",
      );
    });

    it.each<[keyof typeof PREFIX, string, Record<string, unknown>]>([
      ['brave', 'text/html', { query: 'q' }],
      ['wikipedia', 'text/plain', { query: 'q', engine: 'wikipedia' }],
      ['duckduckgo', 'application/json', { query: 'q', engine: 'duckduckgo' }],
    ])('throws ToolRuntimeError naming %s for content type %s', async (provider, contentType, args) => {
      const error = await failure(args, { headers: { 'content-type': contentType }, body: '{}' });
      expectProviderError(
        error,
        provider,
        new RegExp(`but got content type '${contentType.replace('/', '\\/')}'`, 'u'),
      );
    });

    it('throws ToolRuntimeError for an unknown charset', async () => {
      const error = await failure(
        { query: 'q', engine: 'duckduckgo' },
        { headers: { 'content-type': 'text/html; charset=x-made-up' }, body: '<p>x</p>' },
      );
      expectProviderError(
        error,
        'duckduckgo',
        "the response declares an unknown charset 'x-made-up' and cannot be decoded.",
      );
    });

    it.each([
      ['announced by Content-Length', true],
      ['streamed without a length', false],
    ])('throws ToolRuntimeError for a body over 2,000,000 bytes %s', async (_label, announced) => {
      const body = Buffer.alloc(2_000_001, 0x20);
      const error = await failure(
        { query: 'q', engine: 'wikipedia' },
        {
          handle: (response) => {
            response.writeHead(
              200,
              announced ? { ...JSON_TYPE, 'content-length': String(body.length) } : JSON_TYPE,
            );
            response.end(body);
          },
        },
      );
      expectProviderError(
        error,
        'wikipedia',
        /the request failed: .*larger than the limit of 2000000 bytes/u,
      );
    });

    it('accepts a body of exactly 2,000,000 bytes', async () => {
      const json = '{"pages":[]}';
      server.respond = () => ({ headers: JSON_TYPE, body: json + ' '.repeat(2_000_000 - json.length) });
      await expect(
        webSearch(server.seams()).call({ query: 'q', engine: 'wikipedia' }),
      ).resolves.toMatchObject({
        results: [],
      });
    });

    it('throws ToolRuntimeError without the key anywhere when the connection drops mid-request', async () => {
      const error = await failure(
        { query: 'q' },
        {
          handle: (response) => {
            response.socket?.destroy();
          },
        },
      );
      const runtime = expectProviderError(error, 'brave', /the request failed: /u);
      expect(runtime.retryable).toBe(true);
      expect((runtime.cause as Error).message).not.toContain(KEY);
    });

    it('throws ToolRuntimeError when the TLS certificate does not match the host the connector verifies', async () => {
      const seams = server.seams();
      server.respond = () => ({ headers: JSON_TYPE, body: '{"pages":[]}' });
      const error = await failure({ query: 'q', engine: 'wikipedia' }, null, {
        resolver: seams.resolver,
        connector: (target) => seams.connector({ ...target, hostname: 'attacker.example' }),
      });
      expectProviderError(error, 'wikipedia', /the request failed: .*TLS/u);
      expect(server.requests).toEqual([]);
    });

    it('refuses a provider host that resolves to a private address, without connecting', async () => {
      const error = await failure({ query: 'q', engine: 'duckduckgo' }, null, server.seams('10.0.0.7'));
      expectProviderError(
        error,
        'duckduckgo',
        /the request failed: refused to fetch 'https:\/\/html\.duckduckgo\.com\/html\/\?q=q&kp=-1': the host 'html\.duckduckgo\.com' resolves to 10\.0\.0\.7, which is not public.*The request was refused by the URL and address checks; nothing was sent\.$/u,
      );
      expect(server.targets).toEqual([]);
      expect(server.connections).toBe(0);
    });

    it('throws ToolCancelledError without the key when the caller aborts mid-request', async () => {
      const controller = new AbortController();
      server.respond = () => {
        controller.abort(new Error(`stop ${KEY}`));
        return { handle: () => undefined };
      };
      const error = await failure({ query: 'q' }, null, server.seams(), controller.signal);
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect(error.message).toBe('web_search: the brave search was cancelled.');
    });
  });

  describe('call() with engine duckduckgo and an unusable page', () => {
    const challenge = readWebSearchFixture('derived/duckduckgo-challenge.html');

    it.each([202, 403])(
      'reports a challenge page served with HTTP %d and points to wikipedia',
      async (status) => {
        const error = await failure(
          { query: 'q', engine: 'duckduckgo' },
          { status, headers: HTML_TYPE, body: challenge },
        );
        const runtime = expectProviderError(
          error,
          'duckduckgo',
          "answered with a human-verification (anomaly) challenge instead of results; web_search does not solve or bypass it. Use engine: 'wikipedia' (keyless) for encyclopedic lookups, engine: 'brave' with BRAVE_SEARCH_API_KEY for general web search, or try DuckDuckGo again later.",
        );
        expect(runtime.status).toBe(status === 202 ? undefined : status);
        expect(server.requests).toHaveLength(1);
      },
    );

    it('reports changed markup instead of returning nothing', async () => {
      const error = await failure(
        { query: 'q', engine: 'duckduckgo' },
        { headers: HTML_TYPE, body: readWebSearchFixture('derived/duckduckgo-markup-changed.html') },
      );
      expectProviderError(
        error,
        'duckduckgo',
        `returned a page with no recognizable results and no "no results" marker; its HTML markup may have changed. Use engine: 'wikipedia' or engine: 'brave' until the parser is updated.`,
      );
    });

    it('reports a page cut off inside a result container', async () => {
      const page = readWebSearchFixture('duckduckgo/html-results-direct-links.eino.html');
      const cut = page.slice(0, page.indexOf('result__snippet') + 40);
      const error = await failure({ query: 'q', engine: 'duckduckgo' }, { headers: HTML_TYPE, body: cut });
      expectProviderError(error, 'duckduckgo', /returned incomplete result markup/u);
    });
  });
});
