import { buildWikipediaPageUrl } from '../../../lib/builtins/web-search/build-wikipedia-page-url';

describe('buildWikipediaPageUrl', () => {
  describe('buildWikipediaPageUrl()', () => {
    it.each([
      [38930, 'https://en.wikipedia.org/?curid=38930'],
      [1, 'https://en.wikipedia.org/?curid=1'],
      [Number.MAX_SAFE_INTEGER, 'https://en.wikipedia.org/?curid=9007199254740991'],
    ])('builds the curid URL of page %d', (id, expected) => {
      expect(buildWikipediaPageUrl(id)).toBe(expected);
    });
  });
});
