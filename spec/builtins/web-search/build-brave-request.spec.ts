import { buildBraveRequest } from '../../../lib/builtins/web-search/build-brave-request';
import type { SearchQuery } from '../../../lib/builtins/web-search/web-search-types';

const search = (overrides: Partial<SearchQuery> = {}): SearchQuery => ({
  query: 'What is Semantic Kernel',
  maxResults: 5,
  freshness: 'any',
  engine: 'brave',
  ...overrides,
});

describe('buildBraveRequest', () => {
  describe('buildBraveRequest()', () => {
    it('builds the documented endpoint, parameters and headers', () => {
      const request = buildBraveRequest(search(), 'test-key');
      const url = new URL(request.url);
      expect(url.origin + url.pathname).toBe('https://api.search.brave.com/res/v1/web/search');
      expect([...url.searchParams.entries()]).toEqual([
        ['q', 'What is Semantic Kernel'],
        ['count', '5'],
        ['result_filter', 'web'],
        ['safesearch', 'moderate'],
        ['text_decorations', 'false'],
      ]);
      expect(request.headers).toEqual({
        'User-Agent': 'ProtoLink web_search (+https://github.com/nMaroulis/protolink)',
        Accept: 'application/json',
        'X-Subscription-Token': 'test-key',
      });
      expect(request).toMatchObject({ provider: 'brave', expects: 'json' });
    });

    it('never puts the key in the URL', () => {
      expect(buildBraveRequest(search(), 'secret-token-123').url).not.toContain('secret-token-123');
    });

    it.each([
      ['day', 'pd'],
      ['week', 'pw'],
      ['month', 'pm'],
      ['year', 'py'],
    ] as const)('maps freshness %s to %s', (freshness, code) => {
      const url = new URL(buildBraveRequest(search({ freshness }), 'k').url);
      expect(url.searchParams.getAll('freshness')).toEqual([code]);
    });

    it('encodes reserved characters of the query', () => {
      const url = buildBraveRequest(search({ query: 'a&b=c #d' }), 'k').url;
      expect(url).toContain('q=a%26b%3Dc+%23d&');
      expect(new URL(url).searchParams.get('q')).toBe('a&b=c #d');
    });
  });
});
