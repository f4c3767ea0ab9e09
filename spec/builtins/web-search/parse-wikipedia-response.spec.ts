import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { parseWikipediaResponse } from '../../../lib/builtins/web-search/parse-wikipedia-response';
import type { SearchQuery } from '../../../lib/builtins/web-search/web-search-types';
import { readWebSearchFixture } from '../../fixtures/web-search/read-web-search-fixture';

const recorded = readWebSearchFixture('wikipedia/search-page.linksto-shell-computing.limit5.json');
const search = (maxResults: number): SearchQuery => ({
  query: 'linksto:Shell_(computing)',
  maxResults,
  freshness: 'any',
  engine: 'wikipedia',
});

describe('parseWikipediaResponse', () => {
  describe('parseWikipediaResponse()', () => {
    it('normalizes the recorded page list', () => {
      const response = parseWikipediaResponse(recorded, search(5));
      expect(response.provider).toBe('wikipedia');
      expect(response.results).toHaveLength(5);
      expect(response.results[0]).toEqual({
        title: 'North Korea',
        url: 'https://en.wikipedia.org/?curid=21255',
        snippet:
          "Country in East Asia. North Korea, officially the Democratic People's Republic of Korea (DPRK), is a country in East Asia. It constitutes the northern half of the Korean Peninsula",
        sponsored: false,
      });
      expect(response.results.map((result) => result.url)).toEqual([
        'https://en.wikipedia.org/?curid=21255',
        'https://en.wikipedia.org/?curid=18890',
        'https://en.wikipedia.org/?curid=20640',
        'https://en.wikipedia.org/?curid=6097297',
        'https://en.wikipedia.org/?curid=22194',
      ]);
      expect(response.more_results_available).toBe(false);
    });

    it('reports more results when the extra page came back', () => {
      const response = parseWikipediaResponse(recorded, search(4));
      expect(response.results).toHaveLength(4);
      expect(response.more_results_available).toBe(true);
    });

    it('turns the documented searchmatch excerpt into plain text', () => {
      const page = JSON.parse(
        readWebSearchFixture('wikipedia/search-result-object.mediawiki-docs-example.json'),
      );
      const response = parseWikipediaResponse(JSON.stringify({ pages: [page] }), search(1));
      expect(response.results).toEqual([
        {
          title: 'Jupiter',
          url: 'https://en.wikipedia.org/?curid=38930',
          snippet:
            'fifth planet from the Sun and largest planet in the Solar System. Jupiter is the fifth planet from the Sun and the largest in the Solar System. It is a gas giant with a mass one-thousandth that of the Sun, but two-and-a-half',
          sponsored: false,
        },
      ]);
    });

    it('drops pages with invalid ids or titles and keeps entity-decoded text', () => {
      const response = parseWikipediaResponse(
        readWebSearchFixture('derived/wikipedia-entities-and-malformed.json'),
        search(10),
      );
      expect(response.results).toEqual([
        {
          title: 'Jupiter',
          url: 'https://en.wikipedia.org/?curid=38930',
          snippet:
            'fifth planet from the Sun and largest planet in the Solar System. Jupiter is the fifth planet from the Sun and the largest in the Solar System. It is a gas giant & more',
          sponsored: false,
        },
        {
          title: 'AC/DC',
          url: 'https://en.wikipedia.org/?curid=12345',
          snippet: 'AC/DC are an Australian rock band',
          sponsored: false,
        },
        {
          title: 'Dot segment key',
          url: 'https://en.wikipedia.org/?curid=67890',
          snippet: 'The key is never used in the URL',
          sponsored: false,
        },
      ]);
    });

    it('bounds description, excerpt and snippet', () => {
      const page = {
        id: 1,
        key: 'Long',
        title: 'Long',
        description: 'd'.repeat(900),
        excerpt: 'e'.repeat(3000),
      };
      const [result] = parseWikipediaResponse(JSON.stringify({ pages: [page] }), search(1)).results;
      // 500 + '. ' + 1500 is 2002 characters: the joined snippet is cut to 2000.
      expect(result.snippet).toBe(`${'d'.repeat(500)}. ${'e'.repeat(1498)}`);
      expect(result.snippet).toHaveLength(2000);
    });

    it('returns an empty list for no pages', () => {
      expect(parseWikipediaResponse('{"pages":[]}', search(5))).toEqual({
        query: 'linksto:Shell_(computing)',
        provider: 'wikipedia',
        results: [],
        more_results_available: false,
        untrusted_content: true,
      });
    });

    it.each(['{}', '[]', '{"pages":{}}', 'null', '{"pages":"x"}'])(
      'rejects %s without a pages array',
      (body) => {
        const call = () => parseWikipediaResponse(body, search(5));
        expect(call).toThrow(ToolRuntimeError);
        expect(call).toThrow(
          "web_search (engine 'wikipedia', Wikipedia): returned JSON without a 'pages' array. The REST API may have changed; try again later or use another engine.",
        );
      },
    );

    it('rejects invalid JSON', () => {
      expect(() => parseWikipediaResponse('<html>', search(5))).toThrow(
        "web_search (engine 'wikipedia', Wikipedia): returned a body that is not valid JSON. Try again later or use another engine.",
      );
    });
  });
});
