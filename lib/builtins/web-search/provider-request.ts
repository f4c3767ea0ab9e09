import { ToolInputError } from '../../errors/tool-input-error';
import { WEB_SEARCH_LIMITS } from './web-search-limits';
import { WEB_SEARCH_TOOL_NAME } from './web-search-types';
import type { WebSearchEngine } from './web-search-types';

/** The honest User-Agent every provider sees (never a spoofed browser). */
export const WEB_SEARCH_USER_AGENT = 'ProtoLink web_search (+https://github.com/nMaroulis/protolink)';

/** One request to a provider's fixed HTTPS endpoint. */
export interface ProviderRequest {
  /** The engine the request is for (named in every error). */
  provider: WebSearchEngine;
  /** The full URL, fixed endpoint plus encoded query parameters. */
  url: string;
  /** The request headers (may hold the Brave key: never log or serialize a ProviderRequest). */
  headers: Record<string, string>;
  /** The body type the parser expects. */
  expects: 'json' | 'html';
}

/**
 * Builds a provider request from a fixed endpoint and its query parameters.
 *
 * @throws ToolInputError when the encoded URL would exceed 8192 characters.
 */
export function buildProviderRequest(
  provider: WebSearchEngine,
  endpoint: string,
  parameters: ReadonlyArray<readonly [string, string]>,
  headers: Record<string, string>,
  expects: 'json' | 'html',
): ProviderRequest {
  const url = new URL(endpoint);
  for (const [name, value] of parameters) url.searchParams.append(name, value);
  const href = url.href;
  if (href.length > WEB_SEARCH_LIMITS.maxRequestUrlLength) {
    throw new ToolInputError(
      `${WEB_SEARCH_TOOL_NAME}: the ${provider} request URL would have ${href.length} characters ` +
        `(limit ${WEB_SEARCH_LIMITS.maxRequestUrlLength}); shorten the query.`,
      { toolName: WEB_SEARCH_TOOL_NAME },
    );
  }
  return { provider, url: href, headers: { 'User-Agent': WEB_SEARCH_USER_AGENT, ...headers }, expects };
}
