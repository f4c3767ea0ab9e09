import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { WEB_SEARCH_TOOL_NAME } from './web-search-types';
import type { WebSearchEngine } from './web-search-types';

/** Human names of the providers, used in messages next to the engine id. */
export const PROVIDER_LABELS: Readonly<Record<WebSearchEngine, string>> = Object.freeze({
  brave: 'Brave Search',
  duckduckgo: 'DuckDuckGo',
  wikipedia: 'Wikipedia',
});

/** Options of {@link buildProviderError}. */
export interface ProviderErrorOptions {
  /** The HTTP status, when the failure was an HTTP response. */
  status?: number;
  /** Whether the same call may succeed later. */
  retryable?: boolean;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * Builds the ToolRuntimeError for a provider failure: the message starts with the tool and the engine
 * (`web_search (engine 'brave', Brave Search): …`) and `provider` carries the engine id. Callers never put
 * request headers or the API key in `message`.
 */
export function buildProviderError(
  provider: WebSearchEngine,
  message: string,
  options: ProviderErrorOptions = {},
): ToolRuntimeError {
  return new ToolRuntimeError(
    `${WEB_SEARCH_TOOL_NAME} (engine '${provider}', ${PROVIDER_LABELS[provider]}): ${message}`,
    {
      provider,
      toolName: WEB_SEARCH_TOOL_NAME,
      status: options.status,
      retryable: options.retryable ?? false,
      cause: options.cause,
    },
  );
}
