import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { normalizeSearchArguments } from '../../../lib/builtins/web-search/normalize-search-arguments';

describe('normalizeSearchArguments', () => {
  describe('normalizeSearchArguments()', () => {
    it('fills the defaults and trims the query when only a query is given', () => {
      expect(normalizeSearchArguments({ query: '  structured concurrency \n' })).toEqual({
        query: 'structured concurrency',
        maxResults: 5,
        freshness: 'any',
        engine: 'brave',
      });
    });

    it('keeps explicit choices when they are valid', () => {
      expect(
        normalizeSearchArguments({ query: 'q', max_results: 10, freshness: 'year', engine: 'duckduckgo' }),
      ).toEqual({ query: 'q', maxResults: 10, freshness: 'year', engine: 'duckduckgo' });
    });

    it('rejects a query that is only whitespace', () => {
      expect(() => normalizeSearchArguments({ query: ' \t\n ' })).toThrow(ToolInputError);
      expect(() => normalizeSearchArguments({ query: ' \t\n ' })).toThrow(
        'web_search: web search query must not be empty; pass the words to search for.',
      );
    });

    it('rejects a query that is not a string', () => {
      expect(() => normalizeSearchArguments({ query: 42 })).toThrow(
        'web_search: the query must be a string, got number.',
      );
    });

    it('accepts 400 code points and rejects 401 after trimming', () => {
      const astral = '😀'.repeat(400);
      expect(normalizeSearchArguments({ query: ` ${astral} ` }).query).toBe(astral);
      expect(() => normalizeSearchArguments({ query: 'a'.repeat(401) })).toThrow(
        'web_search: the query has 401 characters after trimming; it must not exceed 400. Shorten it.',
      );
    });

    it('counts the length after trimming, however long the padding', () => {
      const query = 'q'.repeat(400);
      expect(normalizeSearchArguments({ query: `${' '.repeat(10_000)}${query}\n\t` }).query).toBe(query);
      expect(() => normalizeSearchArguments({ query: ` ${'😀'.repeat(401)} ` })).toThrow(
        'web_search: the query has 401 characters after trimming; it must not exceed 400. Shorten it.',
      );
    });

    it('accepts 50 words and rejects 51', () => {
      const words = (count: number) => Array.from({ length: count }, (_, index) => `w${index}`).join('  ');
      expect(normalizeSearchArguments({ query: words(50) }).query).toBe(words(50));
      expect(() => normalizeSearchArguments({ query: words(51) })).toThrow(
        'web_search: the query has 51 words; it must not exceed 50 words. Keep the essential terms.',
      );
    });

    it.each([0, 11, 2.5, '3', true])('rejects max_results %p', (value) => {
      expect(() => normalizeSearchArguments({ query: 'q', max_results: value })).toThrow(ToolInputError);
      expect(() => normalizeSearchArguments({ query: 'q', max_results: value })).toThrow(
        /^web_search: max_results must be an integer from 1 to 10, got /,
      );
    });

    it('rejects an unknown freshness', () => {
      expect(() => normalizeSearchArguments({ query: 'q', freshness: 'hour' })).toThrow(
        "web_search: freshness must be one of 'any', 'day', 'week', 'month', 'year', got 'hour'.",
      );
    });

    it('rejects an unknown engine', () => {
      expect(() => normalizeSearchArguments({ query: 'q', engine: 'google' })).toThrow(
        "web_search: engine must be one of 'brave', 'duckduckgo', 'wikipedia', got 'google'.",
      );
    });

    it('rejects a freshness filter for wikipedia', () => {
      expect(() => normalizeSearchArguments({ query: 'q', engine: 'wikipedia', freshness: 'week' })).toThrow(
        "web_search: engine='wikipedia' supports only freshness='any' (got 'week'). Drop the freshness filter, or use engine 'brave' or 'duckduckgo' for recent results.",
      );
    });

    it('names the tool on the error', () => {
      let caught: unknown;
      try {
        normalizeSearchArguments({ query: '' });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ToolInputError);
      expect((caught as ToolInputError).toolName).toBe('web_search');
    });
  });
});
