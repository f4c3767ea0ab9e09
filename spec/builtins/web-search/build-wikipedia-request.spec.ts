import { buildWikipediaRequest } from '../../../lib/builtins/web-search/build-wikipedia-request';

describe('buildWikipediaRequest', () => {
  describe('buildWikipediaRequest()', () => {
    it('asks for one page more than max_results', () => {
      const request = buildWikipediaRequest({
        query: 'Jupiter moons',
        maxResults: 5,
        freshness: 'any',
        engine: 'wikipedia',
      });
      expect(request.url).toBe('https://en.wikipedia.org/w/rest.php/v1/search/page?q=Jupiter+moons&limit=6');
      expect(request.headers).toEqual({
        'User-Agent': 'ProtoLink web_search (+https://github.com/nMaroulis/protolink)',
        Accept: 'application/json',
      });
      expect(request).toMatchObject({ provider: 'wikipedia', expects: 'json' });
    });

    it('uses limit 11 for ten results', () => {
      const request = buildWikipediaRequest({
        query: 'x',
        maxResults: 10,
        freshness: 'any',
        engine: 'wikipedia',
      });
      expect(new URL(request.url).searchParams.get('limit')).toBe('11');
    });
  });
});
