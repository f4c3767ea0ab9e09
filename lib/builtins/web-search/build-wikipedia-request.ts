import { buildProviderRequest } from './provider-request';
import type { ProviderRequest } from './provider-request';
import type { SearchQuery } from './web-search-types';

/** The fixed English Wikipedia REST page-search endpoint. */
export const WIKIPEDIA_ENDPOINT = 'https://en.wikipedia.org/w/rest.php/v1/search/page';

/** Builds the Wikipedia request: `q` and `limit = max_results + 1` (the extra page tells whether more exist). */
export function buildWikipediaRequest(search: SearchQuery): ProviderRequest {
  return buildProviderRequest(
    'wikipedia',
    WIKIPEDIA_ENDPOINT,
    [
      ['q', search.query],
      ['limit', String(search.maxResults + 1)],
    ],
    { Accept: 'application/json' },
    'json',
  );
}
