import type { ServerResponse } from 'node:http';

/**
 * Answers an HTTP request with a JSON-RPC error object (`id: null`), the form MCP clients read from
 * transport-level failures; `headers` adds e.g. `WWW-Authenticate` or `Allow`.
 */
export function sendJsonRpcError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...headers,
  });
  response.end(body);
}
