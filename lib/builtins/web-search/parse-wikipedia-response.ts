import { cleanSearchText, truncateText } from './clean-search-text';
import { buildWikipediaPageUrl } from './build-wikipedia-page-url';
import { htmlFragmentToText } from './html-fragment-to-text';
import { isPlainObject } from './is-plain-object';
import { parseJsonBody } from './parse-json-body';
import { buildProviderError } from './provider-error';
import { WEB_SEARCH_LIMITS } from './web-search-limits';
import type { SearchQuery, WebSearchResponse, WebSearchResult } from './web-search-types';

/**
 * Turns a Wikipedia REST `search/page` JSON body into the normalized response. Each page needs a positive
 * integer `id` and a non-empty title; the snippet is the description and the excerpt (its
 * `<span class="searchmatch">` markup removed) joined with ". "; more results exist when the provider
 * returned more than `max_results` pages (the request asks for one extra). The URL is
 * `https://en.wikipedia.org/?curid=<id>`.
 *
 * @throws ToolRuntimeError naming wikipedia for invalid JSON or a payload without a `pages` array.
 */
export function parseWikipediaResponse(text: string, search: SearchQuery): WebSearchResponse {
  const payload = parseJsonBody(text, 'wikipedia');
  if (!isPlainObject(payload) || !Array.isArray(payload.pages)) {
    throw buildProviderError(
      'wikipedia',
      "returned JSON without a 'pages' array. The REST API may have changed; try again later or use another engine.",
    );
  }
  const results: WebSearchResult[] = [];
  for (const page of payload.pages) {
    if (results.length >= search.maxResults) break;
    const result = toResult(page);
    if (result !== null) results.push(result);
  }
  return {
    query: search.query,
    provider: 'wikipedia',
    results,
    more_results_available: payload.pages.length > search.maxResults,
    untrusted_content: true,
  };
}

function toResult(page: unknown): WebSearchResult | null {
  if (!isPlainObject(page)) return null;
  const id = page.id;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) return null;
  if (typeof page.title !== 'string') return null;
  const title = cleanSearchText(htmlFragmentToText(page.title), WEB_SEARCH_LIMITS.maxTitleLength);
  if (title === '') return null;
  const url = buildWikipediaPageUrl(id);
  const description = toSnippetPart(page.description, WEB_SEARCH_LIMITS.maxDescriptionLength);
  const excerpt = toSnippetPart(page.excerpt, WEB_SEARCH_LIMITS.maxExcerptLength);
  const snippet = truncateText(
    [description, excerpt].filter((part) => part !== '').join('. '),
    WEB_SEARCH_LIMITS.maxSnippetLength,
  );
  return { title, url, snippet, sponsored: false };
}

function toSnippetPart(value: unknown, maxLength: number): string {
  if (typeof value !== 'string') return '';
  return cleanSearchText(htmlFragmentToText(value), maxLength).replace(/[.\s]+$/u, '');
}
