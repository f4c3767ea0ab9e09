import { buildDuckDuckGoRequest } from '../../../lib/builtins/web-search/build-duckduckgo-request';
import type { SearchQuery } from '../../../lib/builtins/web-search/web-search-types';

const search = (overrides: Partial<SearchQuery> = {}): SearchQuery => ({
  query: 'weather Jakarta',
  maxResults: 5,
  freshness: 'any',
  engine: 'duckduckgo',
  ...overrides,
});

describe('buildDuckDuckGoRequest', () => {
  describe('buildDuckDuckGoRequest()', () => {
    it('builds the HTML endpoint with q and kp=-1 and no df for any', () => {
      const request = buildDuckDuckGoRequest(search());
      expect(request.url).toBe('https://html.duckduckgo.com/html/?q=weather+Jakarta&kp=-1');
      expect(request.headers).toEqual({
        'User-Agent': 'ProtoLink web_search (+https://github.com/nMaroulis/protolink)',
        Accept: 'text/html,application/xhtml+xml',
      });
      expect(request).toMatchObject({ provider: 'duckduckgo', expects: 'html' });
    });

    it.each([
      ['day', 'd'],
      ['week', 'w'],
      ['month', 'm'],
      ['year', 'y'],
    ] as const)('maps freshness %s to df=%s', (freshness, code) => {
      expect(buildDuckDuckGoRequest(search({ freshness })).url).toBe(
        `https://html.duckduckgo.com/html/?q=weather+Jakarta&kp=-1&df=${code}`,
      );
    });
  });
});
