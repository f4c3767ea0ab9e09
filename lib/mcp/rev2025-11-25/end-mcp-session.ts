import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { SessionToolCalls } from './session-tool-calls';
import type { McpSession } from './mcp-session-store';

/**
 * What a session's end (a DELETE, its expiry, or its record gone from the shared store) stops in this
 * process, beyond what closing its SDK server aborts (the SDK's own calls): its fast-path calls, and the
 * tasks it owns (cancelled; tasks owned by the token go on).
 */
export function endMcpSession(
  session: McpSession,
  calls: SessionToolCalls,
  onError: ((error: unknown) => void) | undefined,
): void {
  const reason = new McpError(ErrorCode.ConnectionClosed, 'The session ended (deleted, or expired).');
  for (const cancel of [...session.fastCalls.values()]) cancel(reason);
  calls.endSession(session.id).catch((error: unknown) => onError?.(error));
}
