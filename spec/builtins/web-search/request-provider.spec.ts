import { inspect } from 'node:util';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { buildBraveRequest } from '../../../lib/builtins/web-search/build-brave-request';
import { requestProvider } from '../../../lib/builtins/web-search/request-provider';
import { SearchTestServer, generateTestCertificate } from '../../fixtures/web-search/search-test-server';

const KEY = 'BSA-timeout-canary-42';

let server: SearchTestServer;

beforeAll(async () => {
  server = await SearchTestServer.start(generateTestCertificate());
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => server.reset());

describe('requestProvider', () => {
  describe('requestProvider()', () => {
    it('returns the response of the fixed endpoint without following a redirect', async () => {
      server.respond = () => ({ status: 301, headers: { location: 'https://api.search.brave.com/other' } });
      const request = buildBraveRequest(
        { query: 'q', maxResults: 1, freshness: 'any', engine: 'brave' },
        KEY,
      );
      const response = await requestProvider(request, server.seams(), undefined, [KEY]);
      expect(response.status).toBe(301);
      expect(response.redirects).toEqual([]);
      expect(server.requests).toHaveLength(1);
    });

    it('throws a retryable ToolRuntimeError naming the provider when the deadline passes', async () => {
      server.respond = () => ({ handle: () => undefined });
      const request = buildBraveRequest(
        { query: 'q', maxResults: 1, freshness: 'any', engine: 'brave' },
        KEY,
      );
      let caught: unknown;
      try {
        await requestProvider(request, server.seams(), undefined, [KEY], {
          maxResponseBytes: 2_000_000,
          timeoutMs: 300,
        });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ToolRuntimeError);
      const error = caught as ToolRuntimeError;
      expect(error.message).toMatch(
        /^web_search \(engine 'brave', Brave Search\): the request failed: the request to https:\/\/api\.search\.brave\.com\/res\/v1\/web\/search\?q=q&count=1.* did not finish within the 300 ms deadline\.$/u,
      );
      expect(error.provider).toBe('brave');
      expect(error.retryable).toBe(true);
      expect(inspect(error, { depth: Infinity, showHidden: true })).not.toContain(KEY);
    });
  });
});
