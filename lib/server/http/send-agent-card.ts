import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServableAgent } from '../../agents/servable-agent';
import { sendJsonRpcError } from '../../mcp/wire/send-json-rpc-error';

/**
 * Answers a request for the agent's A2A card (GET or HEAD; other methods get 405). A card whose URL is
 * missing or asks for "any free port" (`:0`) advertises `baseUrl` instead, the address actually served; so
 * does one whose URL `isReplaceable` says names the listening address (behind a proxy, the public URL).
 */
export function sendAgentCard(
  request: IncomingMessage,
  response: ServerResponse,
  agent: ServableAgent,
  baseUrl: string,
  isReplaceable?: (url: string) => boolean,
): void {
  request.resume();
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    sendJsonRpcError(response, 405, -32000, `Method not allowed: ${request.method}; use GET.`, {
      allow: 'GET, HEAD',
    });
    return;
  }
  const card = agent.card;
  const json = typeof card.toJSON === 'function' ? card.toJSON() : card;
  const document = typeof json === 'object' && json !== null ? { ...(json as Record<string, unknown>) } : {};
  if (
    typeof document.url !== 'string' ||
    /:0\/?$/.test(document.url) ||
    isReplaceable?.(document.url) === true
  ) {
    document.url = baseUrl;
  }
  const body = JSON.stringify(document);
  response.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-cache',
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}
