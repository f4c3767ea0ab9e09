/** Fixed limits of `web_search` (reference section 1L). */
export const WEB_SEARCH_LIMITS = Object.freeze({
  /** Longest query, in code points, after trimming. */
  maxQueryLength: 400,
  /** Most whitespace-separated words in a query. */
  maxQueryWords: 50,
  /** Fewest and most results per call. */
  minResults: 1,
  maxResults: 10,
  /** Results when `max_results` is not given. */
  defaultResults: 5,
  /** Longest title after whitespace collapsing and entity decoding. */
  maxTitleLength: 500,
  /** Longest snippet after whitespace collapsing and entity decoding. */
  maxSnippetLength: 2000,
  /** Longest Wikipedia description and excerpt inside a snippet. */
  maxDescriptionLength: 500,
  maxExcerptLength: 1500,
  /** Longest result URL. */
  maxResultUrlLength: 2048,
  /** Longest request URL sent to a fixed endpoint. */
  maxRequestUrlLength: 8192,
  /** Longest provider HTML fragment converted to text; longer ones become an empty string. */
  maxFragmentLength: 8000,
  /** Caps on DuckDuckGo text collected per result before cleaning (bounded memory). */
  maxRawTitleLength: 1000,
  maxRawSnippetLength: 4000,
  /** Response body limit, in bytes. */
  maxResponseBytes: 2_000_000,
  /** Deadline of one provider request, in milliseconds. */
  timeoutMs: 10_000,
  /** Longest Brave API key accepted. */
  maxApiKeyLength: 512,
  /** Longest Brave `age` / `page_age` text kept. */
  maxAgeLength: 100,
});
