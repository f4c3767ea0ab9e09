import type { ServableAgent } from '../../agents/servable-agent';
import { ServedToolCalls } from '../serve/served-tool-calls';
import type { ServedToolCall, ServedToolCallsOptions } from '../serve/served-tool-calls';
import { McpToolCallChannel } from './mcp-tool-call-channel';
import type { McpCallExtra, McpToolCallChannelOptions } from './mcp-tool-call-channel';

/** A `tools/call` of the session era: the core's call plus what its channel sends server→client requests on. */
export interface SessionToolCall extends ServedToolCall {
  /** Where the client's capabilities are read (the session's SDK server; nothing for stateless requests). */
  readonly server: McpToolCallChannelOptions['server'];
  /** The SDK's `extra` (or the fast path's stand-in): progress token, notifications, requests, stream. */
  readonly extra: McpCallExtra;
}

/** The call core as the session era runs it. */
export type SessionToolCalls = ServedToolCalls<SessionToolCall>;

/**
 * Makes the call core for the session era: each call's tool reports through an {@link McpToolCallChannel}
 * (notifications and server→client requests on the call's stream).
 */
export function newSessionToolCalls(
  agent: ServableAgent,
  options: ServedToolCallsOptions,
  requestTimeoutMs: number,
): SessionToolCalls {
  return new ServedToolCalls<SessionToolCall>(
    agent,
    options,
    requestTimeoutMs,
    (calls, state, request) =>
      new McpToolCallChannel({
        toolName: request.toolName,
        server: request.server,
        extra: request.extra,
        logLevel: state.logLevel,
        requestTimeoutMs: calls.requestTimeoutMs,
        serverRequests: calls.options.serverRequests !== false,
      }),
  );
}
