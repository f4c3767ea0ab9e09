import type { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { buildProviderError } from './provider-error';
import type { WebSearchEngine } from './web-search-types';

/**
 * Returns the error for a provider response that is not a plain success, or null for a 2xx status: a
 * redirect is refused (the endpoints are fixed), 401/403 from Brave point to the key, 429 and 5xx are
 * retryable.
 */
export function checkProviderStatus(provider: WebSearchEngine, status: number): ToolRuntimeError | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) {
    return buildProviderError(
      provider,
      `answered with a redirect (HTTP ${status}); web_search never follows redirects from its fixed endpoints. ` +
        'Try again later or use another engine.',
      { status },
    );
  }
  if (provider === 'brave' && (status === 401 || status === 403)) {
    return buildProviderError(
      provider,
      `rejected the API key (HTTP ${status}). Check that BRAVE_SEARCH_API_KEY holds a valid, active subscription token.`,
      { status },
    );
  }
  if (status === 429) {
    return buildProviderError(
      provider,
      'is rate limiting requests (HTTP 429). Wait before searching again.',
      {
        status,
        retryable: true,
      },
    );
  }
  if (status >= 500) {
    return buildProviderError(
      provider,
      `failed with HTTP ${status}. Try again later or use another engine.`,
      {
        status,
        retryable: true,
      },
    );
  }
  return buildProviderError(
    provider,
    `refused the request with HTTP ${status}. Check the query, or use another engine.`,
    {
      status,
    },
  );
}
