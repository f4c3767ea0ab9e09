import type { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { cleanSearchText } from './clean-search-text';
import { buildProviderError } from './provider-error';
import { resolveDuckDuckGoLink } from './resolve-duckduckgo-link';
import { scanDuckDuckGoPage } from './scan-duckduckgo-page';
import type { DuckDuckGoPageScan } from './scan-duckduckgo-page';
import { WEB_SEARCH_LIMITS } from './web-search-limits';
import type { SearchQuery, WebSearchResponse, WebSearchResult } from './web-search-types';

/**
 * Turns a DuckDuckGo HTML search page into the normalized response: organic redirect links decoded and
 * validated, ads kept in provider order with `sponsored: true`, DuckDuckGo's `EOF` pseudo-result dropped on
 * no-results pages, and an empty list only when the page says there are no results.
 *
 * @throws ToolRuntimeError naming duckduckgo for a human-verification challenge (pointing to
 * `engine: 'wikipedia'`), a result container left open, a page with neither results nor a no-results
 * marker (the markup may have changed), or a parser failure.
 */
export function parseDuckDuckGoHtml(html: string, search: SearchQuery): WebSearchResponse {
  const scan = scanPage(html);
  if (scan.challenge) throw buildDuckDuckGoChallengeError();
  if (scan.incomplete) {
    throw buildProviderError(
      'duckduckgo',
      'returned incomplete result markup (a result container was never closed); the page was probably cut off. ' +
        "Try again later or use engine: 'wikipedia'.",
      { retryable: true },
    );
  }
  const results: WebSearchResult[] = [];
  let recognized = 0;
  for (const candidate of scan.candidates) {
    if (candidate.noResult || candidate.href === null) continue;
    const title = cleanSearchText(candidate.title, WEB_SEARCH_LIMITS.maxTitleLength);
    const snippet = cleanSearchText(candidate.snippet, WEB_SEARCH_LIMITS.maxSnippetLength);
    if (title === '') continue;
    recognized += 1;
    if (scan.noResultsMarker && title === 'EOF' && snippet === '') continue;
    const url = resolveDuckDuckGoLink(candidate.href, candidate.sponsored);
    if (url === null) continue;
    results.push({ title, url, snippet, sponsored: candidate.sponsored });
  }
  if (recognized === 0 && !scan.noResultsMarker) {
    throw buildProviderError(
      'duckduckgo',
      'returned a page with no recognizable results and no "no results" marker; its HTML markup may have changed. ' +
        "Use engine: 'wikipedia' or engine: 'brave' until the parser is updated.",
    );
  }
  return {
    query: search.query,
    provider: 'duckduckgo',
    results: results.slice(0, search.maxResults),
    more_results_available: scan.moreMarker || results.length > search.maxResults,
    untrusted_content: true,
  };
}

/** Builds the error for a DuckDuckGo human-verification page: no retry, no bypass, a pointer to Wikipedia. */
export function buildDuckDuckGoChallengeError(status?: number): ToolRuntimeError {
  return buildProviderError(
    'duckduckgo',
    'answered with a human-verification (anomaly) challenge instead of results; web_search does not solve or ' +
      "bypass it. Use engine: 'wikipedia' (keyless) for encyclopedic lookups, engine: 'brave' with " +
      'BRAVE_SEARCH_API_KEY for general web search, or try DuckDuckGo again later.',
    { status, retryable: true },
  );
}

function scanPage(html: string): DuckDuckGoPageScan {
  try {
    return scanDuckDuckGoPage(html);
  } catch (error) {
    throw buildProviderError('duckduckgo', 'returned HTML that could not be parsed. Try again later.', {
      cause: error,
    });
  }
}
