import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { McpSession } from './mcp-session-store';

/**
 * A canceled call gets no response, so the SDK would keep its POST open until the client goes away: this
 * releases it (only when the request came alone, so no other response shares the stream), with 204 when
 * nothing was sent yet.
 */
export function releaseCanceledCall(session: McpSession, requestId: RequestId): void {
  const response = session.soloResponses.get(requestId);
  if (!response) return;
  session.soloResponses.delete(requestId);
  session.transport.closeSSEStream(requestId);
  setImmediate(() => {
    if (response.writableEnded) return;
    if (!response.headersSent) response.writeHead(204);
    response.end();
  });
}
