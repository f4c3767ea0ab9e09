import { cleanSearchText } from './clean-search-text';
import { htmlFragmentToText } from './html-fragment-to-text';
import { isPlainObject } from './is-plain-object';
import { normalizeResultUrl } from './normalize-result-url';
import { parseJsonBody } from './parse-json-body';
import { buildProviderError } from './provider-error';
import { WEB_SEARCH_LIMITS } from './web-search-limits';
import type { SearchQuery, WebSearchResponse, WebSearchResult } from './web-search-types';

/**
 * Turns a Brave Search `/res/v1/web/search` JSON body into the normalized response: `web.results` in order,
 * titles and descriptions to plain text, invalid URLs and untitled results dropped, `age` and `page_age`
 * kept as `age` and `published_at`.
 *
 * @throws ToolRuntimeError naming brave for invalid JSON, a non-object payload, a Brave error object, or
 * `web` / `web.results` of the wrong shape.
 */
export function parseBraveResponse(text: string, search: SearchQuery): WebSearchResponse {
  const payload = parseJsonBody(text, 'brave');
  if (!isPlainObject(payload)) {
    throw shapeError(`the top-level value is ${describe(payload)}, not an object`);
  }
  if (payload.type === 'ErrorResponse') {
    throw buildProviderError(
      'brave',
      'returned an error object instead of results. Check BRAVE_SEARCH_API_KEY and your plan limits, then try again.',
      { retryable: false },
    );
  }
  const items = readResultItems(payload.web);
  const results: WebSearchResult[] = [];
  let valid = 0;
  for (const item of items) {
    const result = toResult(item);
    if (result === null) continue;
    valid += 1;
    if (results.length < search.maxResults) results.push(result);
  }
  const providerSaysMore = isPlainObject(payload.query) && payload.query.more_results_available === true;
  return {
    query: search.query,
    provider: 'brave',
    results,
    more_results_available: providerSaysMore || valid > search.maxResults,
    untrusted_content: true,
  };
}

function readResultItems(web: unknown): unknown[] {
  if (web === undefined || web === null) return [];
  if (!isPlainObject(web)) throw shapeError(`'web' is ${describe(web)}, not an object`);
  const results = web.results;
  if (results === undefined || results === null) return [];
  if (!Array.isArray(results)) throw shapeError(`'web.results' is ${describe(results)}, not an array`);
  return results;
}

function toResult(item: unknown): WebSearchResult | null {
  if (!isPlainObject(item) || typeof item.title !== 'string') return null;
  const title = cleanSearchText(htmlFragmentToText(item.title), WEB_SEARCH_LIMITS.maxTitleLength);
  const url = normalizeResultUrl(item.url);
  if (title === '' || url === null) return null;
  const description = typeof item.description === 'string' ? htmlFragmentToText(item.description) : '';
  const result: WebSearchResult = {
    title,
    url,
    snippet: cleanSearchText(description, WEB_SEARCH_LIMITS.maxSnippetLength),
    sponsored: false,
  };
  const age = readShortText(item.age);
  if (age !== null) result.age = age;
  const publishedAt = readShortText(item.page_age);
  if (publishedAt !== null) result.published_at = publishedAt;
  return result;
}

function readShortText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = cleanSearchText(value, WEB_SEARCH_LIMITS.maxAgeLength);
  return text === '' ? null : text;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return /^[aeiou]/u.test(type) ? `an ${type}` : `a ${type}`;
}

function shapeError(detail: string) {
  return buildProviderError(
    'brave',
    `returned JSON of an unexpected shape (${detail}). The API may have changed; try again later or use another engine.`,
  );
}
