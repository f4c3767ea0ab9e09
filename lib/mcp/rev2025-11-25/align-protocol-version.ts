import type { IncomingMessage } from 'node:http';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { hasResumableStreams, isSessionEraVersion, LATEST_SESSION_ERA_VERSION } from '../wire/protocol-eras';

/** The version the SDK's server answers an initialize with: the client's when supported, else the latest. */
export function negotiateProtocolVersion(body: unknown): string {
  const messages = Array.isArray(body) ? body : [body];
  const initialize = messages.find(isInitializeRequest);
  const requested = initialize?.params.protocolVersion;
  return isSessionEraVersion(requested) ? requested : LATEST_SESSION_ERA_VERSION;
}

/**
 * Resumable streams (priming events, `closeSSEStream`) are a property of the session, negotiated once at
 * initialize; a request of a session negotiated at 2025-11-25 or later that is labelled with an older (still
 * supported) `MCP-Protocol-Version` keeps them. Priming events carry no data, so SSE clients never dispatch
 * them; they only record the id to resume from.
 */
export function alignProtocolVersion(request: IncomingMessage, negotiated: string | undefined): void {
  const header = request.headers['mcp-protocol-version'];
  if (!negotiated || typeof header !== 'string' || !hasResumableStreams(negotiated)) return;
  if (header >= negotiated || !isSessionEraVersion(header)) return;
  request.headers['mcp-protocol-version'] = negotiated;
  // The SDK's transport builds its web Request from the raw header list.
  const raw = request.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    if (raw[index].toLowerCase() === 'mcp-protocol-version') raw[index + 1] = negotiated;
  }
}
