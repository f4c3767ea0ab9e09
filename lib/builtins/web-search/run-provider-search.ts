import type { NetworkSeams } from '../net/network-seams';
import { buildBraveRequest } from './build-brave-request';
import { buildDuckDuckGoRequest } from './build-duckduckgo-request';
import { buildWikipediaRequest } from './build-wikipedia-request';
import { checkProviderStatus } from './check-provider-status';
import { decodeProviderBody } from './decode-provider-body';
import { buildDuckDuckGoChallengeError, parseDuckDuckGoHtml } from './parse-duckduckgo-html';
import { parseBraveResponse } from './parse-brave-response';
import { parseWikipediaResponse } from './parse-wikipedia-response';
import type { ProviderRequest } from './provider-request';
import { readBraveApiKey } from './read-brave-api-key';
import { requestProvider } from './request-provider';
import { scanDuckDuckGoPage } from './scan-duckduckgo-page';
import type { SearchQuery, WebSearchResponse } from './web-search-types';

/**
 * Runs one search on the engine the call chose (never another one): reads the Brave key only for brave,
 * sends the request, checks the status and content type, and parses the body.
 *
 * @throws ToolInputError for a missing or malformed Brave key, before any request.
 * @throws ToolRuntimeError naming the provider for HTTP, transport, content and parsing failures.
 * @throws ToolCancelledError when `signal` aborts.
 */
export async function runProviderSearch(
  search: SearchQuery,
  seams: NetworkSeams,
  signal: AbortSignal | undefined,
): Promise<WebSearchResponse> {
  let request: ProviderRequest;
  const secrets: string[] = [];
  if (search.engine === 'brave') {
    const apiKey = readBraveApiKey();
    secrets.push(apiKey);
    request = buildBraveRequest(search, apiKey);
  } else if (search.engine === 'duckduckgo') {
    request = buildDuckDuckGoRequest(search);
  } else {
    request = buildWikipediaRequest(search);
  }
  const response = await requestProvider(request, seams, signal, secrets);
  const statusError = checkProviderStatus(request.provider, response.status);
  if (statusError !== null) {
    if (request.provider === 'duckduckgo' && isChallengePage(response)) {
      throw buildDuckDuckGoChallengeError(response.status);
    }
    throw statusError;
  }
  const text = decodeProviderBody(response, request.provider, request.expects);
  if (search.engine === 'brave') return parseBraveResponse(text, search);
  if (search.engine === 'duckduckgo') return parseDuckDuckGoHtml(text, search);
  return parseWikipediaResponse(text, search);
}

function isChallengePage(response: { headers: Record<string, string>; body: Buffer }): boolean {
  try {
    return scanDuckDuckGoPage(decodeProviderBody(response, 'duckduckgo', 'html')).challenge;
  } catch {
    return false;
  }
}
