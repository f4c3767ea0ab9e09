import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { parseDuckDuckGoHtml } from '../../../lib/builtins/web-search/parse-duckduckgo-html';
import type { SearchQuery } from '../../../lib/builtins/web-search/web-search-types';
import { readWebSearchFixture } from '../../fixtures/web-search/read-web-search-fixture';

const withAd = readWebSearchFixture('duckduckgo/html-results-with-ad-uddg.weather-jakarta.html');
const direct = readWebSearchFixture('duckduckgo/html-results-direct-links.eino.html');
const search = (maxResults: number): SearchQuery => ({
  query: 'weather Jakarta',
  maxResults,
  freshness: 'any',
  engine: 'duckduckgo',
});

function parseError(html: string): ToolRuntimeError {
  try {
    parseDuckDuckGoHtml(html, search(5));
  } catch (error) {
    expect(error).toBeInstanceOf(ToolRuntimeError);
    expect((error as ToolRuntimeError).provider).toBe('duckduckgo');
    return error as ToolRuntimeError;
  }
  throw new Error('expected parseDuckDuckGoHtml to throw');
}

describe('parseDuckDuckGoHtml', () => {
  describe('parseDuckDuckGoHtml()', () => {
    it('keeps the ad first, in provider order, with its click URL intact', () => {
      const response = parseDuckDuckGoHtml(withAd, search(10));
      expect(response.provider).toBe('duckduckgo');
      expect(response.results).toHaveLength(10);
      const [ad, firstOrganic] = response.results;
      expect(ad.sponsored).toBe(true);
      expect(ad.title).toBe('Cheap Travel to Jakarta - Find Great Deals on Flights');
      expect(
        ad.url.startsWith(
          'https://duckduckgo.com/l/?uddg=https%3A%2F%2Fduckduckgo.com%2Fy.js%3Fad_domain%3Dkayak.sg',
        ),
      ).toBe(true);
      expect(ad.snippet).toBe(
        'Jakarta Travel. Search for Cheap Flights and Save Money on Airfare. Find the Right Flight. Compare 100s of Flights & Airline Tickets. Your Shortcut to the Best Travel Deals.',
      );
      expect(firstOrganic).toEqual({
        title: 'Jakarta, Jakarta, Indonesia Weather Forecast | AccuWeather',
        url: 'https://www.accuweather.com/en/id/jakarta/208971/weather-forecast/208971',
        snippet:
          'Jakarta, Jakarta, Indonesia Weather Forecast, with current conditions, wind, air quality, and what to expect for the next 3 days.',
        sponsored: false,
      });
      expect(response.results.slice(1).every((result) => !result.sponsored)).toBe(true);
      expect(response.results.slice(1).every((result) => !result.url.includes('duckduckgo.com'))).toBe(true);
      expect(response.more_results_available).toBe(true);
    });

    it('decodes entities in organic snippets', () => {
      const meteoblue = parseDuckDuckGoHtml(withAd, search(10)).results.find((result) =>
        result.url.includes('meteoblue'),
      );
      expect(
        meteoblue?.snippet.startsWith("Today's and tonight's professional weather forecast for Jakarta."),
      ).toBe(true);
    });

    it('counts the ad toward max_results', () => {
      const response = parseDuckDuckGoHtml(withAd, search(2));
      expect(response.results.map((result) => result.sponsored)).toEqual([true, false]);
    });

    it('returns direct links as they are', () => {
      const response = parseDuckDuckGoHtml(direct, search(10));
      expect(response.results).toHaveLength(10);
      expect(response.results[0]).toEqual({
        title: 'GitHub - cloudwego/eino: The ultimate LLM/AI application development ...',
        url: 'https://github.com/cloudwego/eino',
        snippet:
          'Eino is a framework for building LLM applications in Golang, inspired by LangChain and LlamaIndex. It provides component abstractions, orchestration APIs, best practices, tools and examples for LLM development.',
        sponsored: false,
      });
      expect(response.results[1].snippet).toContain(
        `Eino['aino] (近似音: i know，希望框架能达到 "i know" 的愿景)`,
      );
      expect(response.more_results_available).toBe(true);
    });

    it.each(['duckduckgo/html-no-results-eof.html', 'duckduckgo/html-no-more-results.html'])(
      'returns an empty list for the no-results page %s',
      (path) => {
        expect(parseDuckDuckGoHtml(readWebSearchFixture(path), search(5))).toEqual({
          query: 'weather Jakarta',
          provider: 'duckduckgo',
          results: [],
          more_results_available: false,
          untrusted_content: true,
        });
      },
    );

    it('returns an empty list when the page says "No results"', () => {
      const html =
        '<html><body><div id="links" class="results"><div class="msg">No results found for <b>x</b>.</div></div></body></html>';
      expect(parseDuckDuckGoHtml(html, search(5)).results).toEqual([]);
    });

    it('decodes entities, collapses whitespace and drops invalid links in the derived page', () => {
      const response = parseDuckDuckGoHtml(
        readWebSearchFixture('derived/duckduckgo-entities-and-malformed.html'),
        search(10),
      );
      expect(response.results).toEqual([
        {
          title: "Café & Bar 'Jakarta' <Guide> — 2026",
          url: 'https://example.com/a%20b?x=1',
          snippet: 'Line one line two… bold😀',
          sponsored: false,
        },
        {
          title: 'Sponsored: cheap flights',
          url: 'https://duckduckgo.com/y.js?ad_domain=example.org&ad_provider=bingv7aa&ad_type=txad&u3=https%3A%2F%2Fwww.bing.com%2Faclick',
          snippet: 'Book now.',
          sponsored: true,
        },
        {
          title: 'IPv6 host',
          url: 'https://[2001:db8::1]:8443/path?q=%5Bx%5D',
          snippet: 'Bracketed, port kept.',
          sponsored: false,
        },
        { title: 'IDN host', url: 'https://xn--bcher-kva.example/%C3%A4', snippet: '', sponsored: false },
      ]);
      expect(response.more_results_available).toBe(true);
    });

    it('detects the challenge page and points to wikipedia', () => {
      const error = parseError(readWebSearchFixture('derived/duckduckgo-challenge.html'));
      expect(error.message).toBe(
        "web_search (engine 'duckduckgo', DuckDuckGo): answered with a human-verification (anomaly) challenge instead of results; web_search does not solve or bypass it. Use engine: 'wikipedia' (keyless) for encyclopedic lookups, engine: 'brave' with BRAVE_SEARCH_API_KEY for general web search, or try DuckDuckGo again later.",
      );
      expect(error.retryable).toBe(true);
    });

    it.each([
      ['a form with id challenge-form', '<form id="challenge-form" action="/x"></form>'],
      [
        'a form posting to anomaly.js',
        '<form action="//duckduckgo.com/anomaly.js?sv=html&amp;cc=botnet"></form>',
      ],
      ['an anomaly-modal class', '<div class="anomaly-modal"></div>'],
      [
        'an anomaly-modal__ class',
        '<div class="x anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div>',
      ],
    ])('detects a challenge from %s even next to results', (_label, marker) => {
      const html = withAd.replace(
        '<div id="links" class="results">',
        `${marker}<div id="links" class="results">`,
      );
      expect(parseError(html).message).toContain("Use engine: 'wikipedia'");
    });

    it('reports a page cut off inside a result', () => {
      const cut = withAd.slice(0, withAd.indexOf('Weather Jakarta - meteoblue'));
      expect(parseError(cut).message).toBe(
        "web_search (engine 'duckduckgo', DuckDuckGo): returned incomplete result markup (a result container was never closed); the page was probably cut off. Try again later or use engine: 'wikipedia'.",
      );
    });

    it('accepts a result container closed by its parent end tag (sloppy markup, not a cut-off page)', () => {
      const html =
        '<section><div class="result web-result"><a class="result__a" href="https://a.example/">A</a>' +
        '<a class="result__snippet">text</a></section><div class="result--more"></div>';
      expect(parseDuckDuckGoHtml(html, search(5)).results).toEqual([
        { title: 'A', url: 'https://a.example/', snippet: 'text', sponsored: false },
      ]);
    });

    it('reports changed markup instead of returning nothing', () => {
      const message =
        "web_search (engine 'duckduckgo', DuckDuckGo): returned a page with no recognizable results and no \"no results\" marker; its HTML markup may have changed. Use engine: 'wikipedia' or engine: 'brave' until the parser is updated.";
      expect(parseError(readWebSearchFixture('derived/duckduckgo-markup-changed.html')).message).toBe(
        message,
      );
      expect(parseError('').message).toBe(message);
      expect(parseError('<div class="result web-result"><h2>no title link</h2></div>').message).toBe(message);
    });

    it('bounds title and snippet length', () => {
      const html = `<div class="result web-result"><a class="result__a" href="https://example.com/">${'t'.repeat(5000)}</a><a class="result__snippet">${'s '.repeat(5000)}</a></div>`;
      const [result] = parseDuckDuckGoHtml(html, search(1)).results;
      expect(result.title).toHaveLength(500);
      expect(result.snippet.length).toBeLessThanOrEqual(2000);
    });

    it('ignores script content and a second title link', () => {
      const html =
        '<div class="result web-result"><script>var a = "<a class=result__a>";</script>' +
        '<a class="result__a" href="https://one.example/">One</a><a class="result__a" href="https://two.example/">Two</a></div>';
      expect(parseDuckDuckGoHtml(html, search(5)).results).toEqual([
        { title: 'One', url: 'https://one.example/', snippet: '', sponsored: false },
      ]);
    });
  });
});

describe('parseDuckDuckGoHtml nesting bound', () => {
  it('refuses a page of endless opening tags quickly, as a provider error', () => {
    const error = parseError(`<html><body>${'<div>'.repeat(400_000)}</body></html>`);
    expect(error.message).toMatch(/duckduckgo.*returned HTML that could not be parsed/i);
    expect((error.cause as Error).message).toContain('nests HTML elements more than 512 levels deep');
  });

  it('still reads the recorded pages', () => {
    expect(parseDuckDuckGoHtml(withAd, search(5)).results.length).toBeGreaterThan(0);
  });
});
