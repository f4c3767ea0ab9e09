import { buildProviderRequest } from './provider-request';
import type { ProviderRequest } from './provider-request';
import type { SearchQuery, WebSearchFreshness } from './web-search-types';

/** The fixed endpoint of DuckDuckGo's non-JavaScript HTML search page. */
export const DUCKDUCKGO_ENDPOINT = 'https://html.duckduckgo.com/html/';

const DUCKDUCKGO_FRESHNESS: Readonly<Record<WebSearchFreshness, string | null>> = Object.freeze({
  any: null,
  day: 'd',
  week: 'w',
  month: 'm',
  year: 'y',
});

/** Builds the DuckDuckGo HTML request: `q`, `kp=-1` (moderate safe search) and `df=d|w|m|y`. */
export function buildDuckDuckGoRequest(search: SearchQuery): ProviderRequest {
  const parameters: Array<[string, string]> = [
    ['q', search.query],
    ['kp', '-1'],
  ];
  const freshness = DUCKDUCKGO_FRESHNESS[search.freshness];
  if (freshness !== null) parameters.push(['df', freshness]);
  return buildProviderRequest(
    'duckduckgo',
    DUCKDUCKGO_ENDPOINT,
    parameters,
    { Accept: 'text/html,application/xhtml+xml' },
    'html',
  );
}
