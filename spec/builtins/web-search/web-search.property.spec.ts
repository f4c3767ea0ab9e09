import { fullFormats } from 'ajv-formats/dist/formats';
import fc from 'fast-check';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { parseBraveResponse } from '../../../lib/builtins/web-search/parse-brave-response';
import { parseDuckDuckGoHtml } from '../../../lib/builtins/web-search/parse-duckduckgo-html';
import { parseWikipediaResponse } from '../../../lib/builtins/web-search/parse-wikipedia-response';
import { webSearch } from '../../../lib/builtins/web-search/web-search';
import type {
  SearchQuery,
  WebSearchEngine,
  WebSearchResponse,
} from '../../../lib/builtins/web-search/web-search-types';
import { validateToolOutput } from '../../../lib/tools/validation/validate-tool-output';
import {
  braveBody,
  duckDuckGoBody,
  wikipediaBody,
} from '../../fixtures/web-search/provider-body-arbitraries';
import { SearchTestServer, generateTestCertificate } from '../../fixtures/web-search/search-test-server';

const OUTPUT_SCHEMA = webSearch().outputSchema!;
const RESULT_KEYS = new Set(['title', 'url', 'snippet', 'sponsored', 'age', 'published_at']);
const FORBIDDEN_URL_CHARACTERS = /[\s\u0000-\u001f\u007f-\u009f<>"{}|\\^`]/u;
const isRfc3986Uri = fullFormats.uri as (value: string) => boolean;

const BODIES: Record<WebSearchEngine, fc.Arbitrary<string>> = {
  brave: braveBody,
  duckduckgo: duckDuckGoBody,
  wikipedia: wikipediaBody,
};
const CONTENT_TYPES: Record<WebSearchEngine, string> = {
  brave: 'application/json',
  duckduckgo: 'text/html; charset=utf-8',
  wikipedia: 'application/json; charset=utf-8',
};

/** Tallies outcomes, so a property that only ever saw errors fails instead of passing vacuously. */
class Outcomes {
  results = 0;
  errors = 0;
}

/** Whether a returned URL satisfies every result-URL rule (WS-12). */
function expectValidResultUrl(url: string): void {
  expect(url.length).toBeLessThanOrEqual(2048);
  expect(FORBIDDEN_URL_CHARACTERS.test(url)).toBe(false);
  expect(isRfc3986Uri(url)).toBe(true);
  const parsed = new URL(url);
  expect(['http:', 'https:']).toContain(parsed.protocol);
  expect(parsed.username).toBe('');
  expect(parsed.password).toBe('');
  expect(parsed.hash).toBe('');
  expect(parsed.hostname).not.toBe('');
  expect(parsed.hostname.endsWith('.')).toBe(false);
  expect(parsed.href).toBe(url);
}

function expectCleanText(text: unknown, maxLength: number, allowEmpty: boolean): void {
  expect(typeof text).toBe('string');
  const value = text as string;
  expect(value.length).toBeLessThanOrEqual(maxLength);
  if (!allowEmpty) expect(value.length).toBeGreaterThan(0);
  expect(value).toBe(value.trim());
  expect(/[^\S ]| {2}|[\u0000-\u001f\u007f-\u009f]/u.test(value)).toBe(false);
}

function expectNormalized(response: WebSearchResponse, search: SearchQuery, outcomes: Outcomes): void {
  expect(() => validateToolOutput(response, OUTPUT_SCHEMA, 'web_search')).not.toThrow();
  expect(Object.keys(response).sort()).toEqual(
    ['more_results_available', 'provider', 'query', 'results', 'untrusted_content'].sort(),
  );
  expect(response.query).toBe(search.query);
  expect(response.provider).toBe(search.engine);
  expect(response.untrusted_content).toBe(true);
  expect(typeof response.more_results_available).toBe('boolean');
  expect(response.results.length).toBeLessThanOrEqual(search.maxResults);
  for (const result of response.results) {
    expect(Object.keys(result).every((key) => RESULT_KEYS.has(key))).toBe(true);
    expectCleanText(result.title, 500, false);
    expectCleanText(result.snippet, 2000, true);
    expectValidResultUrl(result.url);
    expect(typeof result.sponsored).toBe('boolean');
    if (search.engine !== 'duckduckgo') expect(result.sponsored).toBe(false);
  }
  if (response.results.length > 0) outcomes.results += 1;
}

function expectProviderFailure(error: unknown, engine: WebSearchEngine, outcomes: Outcomes): void {
  expect(error).toBeInstanceOf(ToolRuntimeError);
  expect((error as ToolRuntimeError).provider).toBe(engine);
  expect((error as ToolRuntimeError).message).toMatch(new RegExp(`^web_search \\(engine '${engine}'`, 'u'));
  outcomes.errors += 1;
}

const ENGINES: WebSearchEngine[] = ['brave', 'duckduckgo', 'wikipedia'];

describe('webSearch', () => {
  describe('parsers (property)', () => {
    const parsers: Record<WebSearchEngine, (text: string, search: SearchQuery) => WebSearchResponse> = {
      brave: parseBraveResponse,
      duckduckgo: parseDuckDuckGoHtml,
      wikipedia: parseWikipediaResponse,
    };

    it.each(ENGINES)('return the normalized shape or throw ToolRuntimeError for any %s body', (engine) => {
      const outcomes = new Outcomes();
      fc.assert(
        fc.property(BODIES[engine], fc.integer({ min: 1, max: 10 }), (body, maxResults) => {
          const search: SearchQuery = { query: 'q', maxResults, freshness: 'any', engine };
          let response: WebSearchResponse;
          try {
            response = parsers[engine](body, search);
          } catch (error) {
            expectProviderFailure(error, engine, outcomes);
            return;
          }
          expectNormalized(response, search, outcomes);
        }),
        { numRuns: 400 },
      );
      expect(outcomes.results).toBeGreaterThan(0);
      expect(outcomes.errors).toBeGreaterThan(0);
    });
  });

  describe('call() over the network (property)', () => {
    let server: SearchTestServer;
    let savedKey: string | undefined;

    beforeAll(async () => {
      server = await SearchTestServer.start(generateTestCertificate());
      savedKey = process.env.BRAVE_SEARCH_API_KEY;
      process.env.BRAVE_SEARCH_API_KEY = 'property-test-key';
    });

    afterAll(async () => {
      if (savedKey === undefined) delete process.env.BRAVE_SEARCH_API_KEY;
      else process.env.BRAVE_SEARCH_API_KEY = savedKey;
      await server.close();
    });

    it.each(ENGINES)(
      'returns the normalized shape or throws ToolRuntimeError for any %s response',
      async (engine) => {
        const outcomes = new Outcomes();
        const tool = webSearch(server.seams());
        const response = fc.record({
          body: fc.oneof(
            { weight: 5, arbitrary: BODIES[engine].map((text) => Buffer.from(text)) },
            { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
          ),
          status: fc.oneof(
            { weight: 6, arbitrary: fc.constant(200) },
            fc.constantFrom(202, 203, 301, 403, 429, 500),
          ),
          contentType: fc.oneof(
            { weight: 6, arbitrary: fc.constant(CONTENT_TYPES[engine]) },
            fc.constantFrom('text/plain', 'application/json; charset=latin1', 'text/html; charset=bogus', ''),
          ),
          maxResults: fc.integer({ min: 1, max: 10 }),
        });
        await fc.assert(
          fc.asyncProperty(response, async ({ body, status, contentType, maxResults }) => {
            server.respond = () => ({
              status,
              headers: (contentType === '' ? {} : { 'content-type': contentType }) as Record<string, string>,
              body,
            });
            const search: SearchQuery = { query: 'property query', maxResults, freshness: 'any', engine };
            let result: WebSearchResponse;
            try {
              result = (await tool.call({
                query: ' property query ',
                max_results: maxResults,
                engine,
              })) as WebSearchResponse;
            } catch (error) {
              expectProviderFailure(error, engine, outcomes);
              return;
            }
            expectNormalized(result, search, outcomes);
          }),
          { numRuns: 60 },
        );
        expect(outcomes.results).toBeGreaterThan(0);
        expect(outcomes.errors).toBeGreaterThan(0);
      },
      60_000,
    );
  });
});
