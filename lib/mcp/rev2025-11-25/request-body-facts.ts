import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { McpSession } from './mcp-session-store';

/** Passes the client's `notifications/cancelled` in the body to the session's fast calls they name. */
export function cancelFastCalls(session: McpSession, body: unknown): void {
  if (session.fastCalls.size === 0) return;
  for (const message of Array.isArray(body) ? body : [body]) {
    const notification = message as {
      id?: unknown;
      method?: unknown;
      params?: { requestId?: unknown; reason?: unknown };
    };
    if (notification.method !== 'notifications/cancelled' || notification.id !== undefined) continue;
    const requestId = notification.params?.requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') continue;
    session.fastCalls.get(requestId)?.(notification.params?.reason);
  }
}

export function soloRequestId(body: unknown): RequestId | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const message = body as { id?: unknown; method?: unknown };
  return typeof message.method === 'string' &&
    (typeof message.id === 'string' || typeof message.id === 'number')
    ? message.id
    : undefined;
}

export function containsInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
}

/** The ids of the requests in a POST body (not its notifications nor answers). */
export function requestIdsOf(body: unknown): (string | number)[] {
  const ids: (string | number)[] = [];
  for (const message of Array.isArray(body) ? body : [body]) {
    const { id, method } = (message ?? {}) as { id?: unknown; method?: unknown };
    if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
  }
  return ids;
}
