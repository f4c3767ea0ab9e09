/** The search providers `web_search` can use, chosen per call. */
export type WebSearchEngine = 'brave' | 'duckduckgo' | 'wikipedia';

/** How recent results must be; `any` means no filter. */
export type WebSearchFreshness = 'any' | 'day' | 'week' | 'month' | 'year';

/** One ranked search result, the same shape for every provider. */
export interface WebSearchResult {
  /** Plain-text title (≤ 500 characters). */
  title: string;
  /** A validated http(s) URL without credentials or fragment (≤ 2048 characters). */
  url: string;
  /** Plain-text snippet (≤ 2000 characters, may be empty). */
  snippet: string;
  /** True for a provider's advertisement (DuckDuckGo ads); ads keep their place in provider order. */
  sponsored: boolean;
  /** Brave only: the provider's relative age text, such as `2 weeks ago`. */
  age?: string;
  /** Brave only: the page date the provider reports (`page_age`). */
  published_at?: string;
}

/** What `web_search` returns: normalized, provider-neutral and marked as untrusted. */
export interface WebSearchResponse {
  /** The query as sent (trimmed). */
  query: string;
  /** The engine that answered. */
  provider: WebSearchEngine;
  /** Ranked results, at most `max_results`. */
  results: WebSearchResult[];
  /** Whether the provider has more results than were returned. */
  more_results_available: boolean;
  /** Always true: titles, URLs and snippets are external data, never instructions. */
  untrusted_content: true;
}

/** The checked arguments of one search. */
export interface SearchQuery {
  /** The trimmed query text. */
  query: string;
  /** How many results to return (1–10). */
  maxResults: number;
  /** The freshness filter. */
  freshness: WebSearchFreshness;
  /** The provider to ask. */
  engine: WebSearchEngine;
}

/** The name every `web_search` tool has. */
export const WEB_SEARCH_TOOL_NAME = 'web_search';
