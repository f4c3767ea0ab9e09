import { buildProviderRequest } from './provider-request';
import type { ProviderRequest } from './provider-request';
import type { SearchQuery, WebSearchFreshness } from './web-search-types';

/** The fixed Brave Search web endpoint. */
export const BRAVE_ENDPOINT = 'https://api.search.brave.com/res/v1/web/search';

const BRAVE_FRESHNESS: Readonly<Record<WebSearchFreshness, string | null>> = Object.freeze({
  any: null,
  day: 'pd',
  week: 'pw',
  month: 'pm',
  year: 'py',
});

/**
 * Builds the Brave Search request: `q`, `count`, `result_filter=web`, `safesearch=moderate`,
 * `text_decorations=false` and `freshness=pd|pw|pm|py`, with the key in `X-Subscription-Token`.
 */
export function buildBraveRequest(search: SearchQuery, apiKey: string): ProviderRequest {
  const parameters: Array<[string, string]> = [
    ['q', search.query],
    ['count', String(search.maxResults)],
    ['result_filter', 'web'],
    ['safesearch', 'moderate'],
    ['text_decorations', 'false'],
  ];
  const freshness = BRAVE_FRESHNESS[search.freshness];
  if (freshness !== null) parameters.push(['freshness', freshness]);
  return buildProviderRequest(
    'brave',
    BRAVE_ENDPOINT,
    parameters,
    { Accept: 'application/json', 'X-Subscription-Token': apiKey },
    'json',
  );
}
