import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { parseBraveResponse } from '../../../lib/builtins/web-search/parse-brave-response';
import type { SearchQuery } from '../../../lib/builtins/web-search/web-search-types';
import { readWebSearchFixture } from '../../fixtures/web-search/read-web-search-fixture';

const recorded = readWebSearchFixture('brave/web-search.what-is-semantic-kernel.json');
const search = (maxResults: number): SearchQuery => ({
  query: 'What is Semantic Kernel',
  maxResults,
  freshness: 'any',
  engine: 'brave',
});

function parseError(text: string): ToolRuntimeError {
  try {
    parseBraveResponse(text, search(5));
  } catch (error) {
    expect(error).toBeInstanceOf(ToolRuntimeError);
    return error as ToolRuntimeError;
  }
  throw new Error('expected parseBraveResponse to throw');
}

describe('parseBraveResponse', () => {
  describe('parseBraveResponse()', () => {
    it('normalizes the recorded response in provider order', () => {
      const response = parseBraveResponse(recorded, search(10));
      expect(response.provider).toBe('brave');
      expect(response.query).toBe('What is Semantic Kernel');
      expect(response.untrusted_content).toBe(true);
      expect(response.more_results_available).toBe(true);
      expect(response.results).toHaveLength(10);
      expect(response.results[0]).toEqual({
        title: 'Introduction to Semantic Kernel | Microsoft Learn',
        url: 'https://learn.microsoft.com/en-us/semantic-kernel/overview/',
        snippet:
          "Semantic Kernel combines prompts with existing APIs to perform actions. By describing your existing code to AI models, they’ll be called to address requests. When a request is made the model calls a function, and Semantic Kernel is the middleware translating the model's request to a function ...",
        sponsored: false,
      });
      expect(response.results[1]).toMatchObject({
        age: 'July 25, 2024',
        published_at: '2024-07-25T00:00:00',
      });
      expect(response.results.map((result) => result.url)).toContain(
        'https://github.com/microsoft/semantic-kernel',
      );
      expect(response.results.every((result) => result.sponsored === false)).toBe(true);
    });

    it('keeps relative ages as Brave reports them', () => {
      const ages = parseBraveResponse(recorded, search(10)).results.map((result) => result.age);
      expect(ages).toEqual(expect.arrayContaining(['1 day ago', '2 weeks ago']));
    });

    it('returns at most max_results', () => {
      expect(parseBraveResponse(recorded, search(3)).results).toHaveLength(3);
    });

    it('decodes entities, strips tags, normalizes URLs and drops invalid results', () => {
      const response = parseBraveResponse(
        readWebSearchFixture('derived/brave-entities-and-malformed.json'),
        search(10),
      );
      expect(response.results).toEqual([
        {
          title: "Introduction to Semantic Kernel & Agents | Microsoft's Learn",
          url: 'https://learn.microsoft.com/en-us/semantic-kernel/overview/',
          snippet: "Semantic Kernel combines prompts with existing APIs… it's the middleware.",
          sponsored: false,
          age: '2 weeks ago',
          published_at: '2025-03-28T00:00:00',
        },
        {
          title: 'Sparse result',
          url: 'https://github.com/microsoft/semantic-kernel',
          snippet: '',
          sponsored: false,
        },
      ]);
      expect(response.more_results_available).toBe(false);
    });

    it('reports more results when more valid results came back than requested', () => {
      const response = parseBraveResponse(
        readWebSearchFixture('derived/brave-entities-and-malformed.json'),
        search(1),
      );
      expect(response.results).toHaveLength(1);
      expect(response.more_results_available).toBe(true);
    });

    it.each([
      ['no web section', '{"type":"search","query":{"original":"x"}}'],
      ['no results list', '{"type":"search","web":{"type":"search"}}'],
      ['an empty results list', '{"type":"search","web":{"type":"search","results":[]}}'],
    ])('returns an empty list for %s', (_label, body) => {
      expect(parseBraveResponse(body, search(5))).toEqual({
        query: 'What is Semantic Kernel',
        provider: 'brave',
        results: [],
        more_results_available: false,
        untrusted_content: true,
      });
    });

    it('rejects invalid JSON', () => {
      const error = parseError('{"web": ');
      expect(error.message).toBe(
        "web_search (engine 'brave', Brave Search): returned a body that is not valid JSON. Try again later or use another engine.",
      );
      expect(error.provider).toBe('brave');
    });

    it.each([
      ['an array', '[]', 'the top-level value is an array, not an object'],
      ['a string', '"x"', 'the top-level value is a string, not an object'],
      ['null', 'null', 'the top-level value is null, not an object'],
      ['web as a list', '{"web":[]}', "'web' is an array, not an object"],
      ['results as an object', '{"web":{"results":{}}}', "'web.results' is an object, not an array"],
    ])('rejects %s', (_label, body, detail) => {
      expect(parseError(body).message).toBe(
        `web_search (engine 'brave', Brave Search): returned JSON of an unexpected shape (${detail}). The API may have changed; try again later or use another engine.`,
      );
    });

    it('rejects a Brave error object', () => {
      expect(
        parseError('{"type":"ErrorResponse","error":{"code":"SUBSCRIPTION_TOKEN_INVALID"}}').message,
      ).toBe(
        "web_search (engine 'brave', Brave Search): returned an error object instead of results. Check BRAVE_SEARCH_API_KEY and your plan limits, then try again.",
      );
    });
  });
});
