import { buildProviderError } from './provider-error';
import type { WebSearchEngine } from './web-search-types';

/**
 * Parses a provider's JSON body.
 *
 * @throws ToolRuntimeError naming the provider when the body is not valid JSON.
 */
export function parseJsonBody(text: string, provider: WebSearchEngine): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw buildProviderError(
      provider,
      'returned a body that is not valid JSON. Try again later or use another engine.',
      {
        cause: error,
        retryable: true,
      },
    );
  }
}
