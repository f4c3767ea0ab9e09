import type { ServerResponse } from 'node:http';
import type { SessionLimit } from '../../errors/session-limit-error';
import { sendJsonRpcError } from '../wire/send-json-rpc-error';

/**
 * Refuses an `initialize` at a session cap, the same whether this process counted it or a shared store did:
 * 503 at `maxSessions`, 429 at `maxSessionsPerClient`, both with `Retry-After: 5`.
 */
export function sendSessionLimit(response: ServerResponse, limit: SessionLimit, max: number): void {
  if (limit === 'maxSessions') {
    sendJsonRpcError(response, 503, -32000, `Service Unavailable: ${max} sessions are open; retry later.`, {
      'retry-after': '5',
    });
    return;
  }
  sendJsonRpcError(
    response,
    429,
    -32000,
    `Too Many Requests: this client already has ${max} sessions open; close one (DELETE) or retry later.`,
    { 'retry-after': '5' },
  );
}
