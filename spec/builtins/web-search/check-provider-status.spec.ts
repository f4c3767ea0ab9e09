import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { checkProviderStatus } from '../../../lib/builtins/web-search/check-provider-status';

describe('checkProviderStatus', () => {
  describe('checkProviderStatus()', () => {
    it.each([200, 202, 204])('accepts HTTP %d', (status) => {
      expect(checkProviderStatus('brave', status)).toBeNull();
    });

    it('refuses a redirect', () => {
      const error = checkProviderStatus('wikipedia', 302);
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect(error).toMatchObject({ provider: 'wikipedia', status: 302, retryable: false });
      expect(error?.message).toBe(
        "web_search (engine 'wikipedia', Wikipedia): answered with a redirect (HTTP 302); web_search never follows redirects from its fixed endpoints. Try again later or use another engine.",
      );
    });

    it('points to the key for Brave 401', () => {
      expect(checkProviderStatus('brave', 401)?.message).toBe(
        "web_search (engine 'brave', Brave Search): rejected the API key (HTTP 401). Check that BRAVE_SEARCH_API_KEY holds a valid, active subscription token.",
      );
    });

    it('marks 429 and 5xx retryable', () => {
      expect(checkProviderStatus('duckduckgo', 429)).toMatchObject({ retryable: true, status: 429 });
      expect(checkProviderStatus('duckduckgo', 429)?.message).toBe(
        "web_search (engine 'duckduckgo', DuckDuckGo): is rate limiting requests (HTTP 429). Wait before searching again.",
      );
      expect(checkProviderStatus('brave', 503)).toMatchObject({ retryable: true, status: 503 });
      expect(checkProviderStatus('brave', 503)?.message).toBe(
        "web_search (engine 'brave', Brave Search): failed with HTTP 503. Try again later or use another engine.",
      );
    });

    it('reports other client errors', () => {
      expect(checkProviderStatus('wikipedia', 400)).toMatchObject({ retryable: false, status: 400 });
      expect(checkProviderStatus('wikipedia', 400)?.message).toBe(
        "web_search (engine 'wikipedia', Wikipedia): refused the request with HTTP 400. Check the query, or use another engine.",
      );
    });
  });
});
