import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { MCPSignInRequiredError } from '../../errors/mcp-sign-in-required-error';
import { ProtolinkError } from '../../errors/protolink-error';
import { ToolCancelledError } from '../../errors/tool-cancelled-error';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { attachServerStderr, SERVER_STDERR_NOTE } from './attach-server-stderr';
import type { MCPTransportKind } from './mcp-adapter-options';
import type { McpCallFailure } from './mcp-session';
import { describeError } from './mcp-session-helpers';

/** What {@link toMcpCallError} needs to word the error. */
export interface McpCallErrorContext {
  readonly toolName: string;
  readonly serverName: string;
  readonly timeoutMs: number;
  /** The caller's signal, to tell a cancellation from a timeout (the SDK reports both alike). */
  readonly signal?: AbortSignal;
  /** The tail of the stdio server's stderr, attached as `serverStderr` (never in the message) when the server died. */
  readonly stderr?: string;
}

/**
 * Whether a failure means the streamable HTTP server no longer knows the session, so the call never ran:
 * only an HTTP 404 reported by the SDK's transport (`StreamableHTTPError`) on the `http` transport. A
 * JSON-RPC error from the server (an `McpError`, whatever its code) or any message text never counts,
 * since the tool may have run and had effects.
 */
export function isSessionExpired(failure: McpCallFailure, transport: MCPTransportKind): boolean {
  return transport === 'http' && failure.error instanceof StreamableHTTPError && failure.error.code === 404;
}

/**
 * Turns a failed call into the error the caller sees: {@link ToolCancelledError} when the caller aborted,
 * otherwise a {@link ToolRuntimeError} naming the tool and the server (timeout, crash, protocol error).
 */
export function toMcpCallError(failure: McpCallFailure, context: McpCallErrorContext): ProtolinkError {
  const where = `MCP tool '${context.toolName}' on server '${context.serverName}'`;
  if (context.signal?.aborted) {
    const reason = context.signal.reason as unknown;
    const why =
      reason instanceof ToolCancelledError
        ? (reason.reason ?? reason.message)
        : reason === undefined
          ? undefined
          : describeError(reason);
    return new ToolCancelledError(
      `The call of ${where} was cancelled${why ? ` (${why})` : ''}; the server was sent notifications/cancelled.`,
      {
        cause: reason,
        toolName: context.toolName,
        reason: why,
      },
    );
  }
  // Already names the server and the next step (sign in); the tool's name adds nothing to do.
  if (failure.error instanceof MCPSignInRequiredError) return failure.error;
  if (failure.fatal) {
    return new ToolRuntimeError(`${where} failed: ${failure.fatal.message}`, {
      cause: failure.fatal,
      toolName: context.toolName,
      provider: context.serverName,
    });
  }
  const error = failure.error;
  if (
    error instanceof McpError &&
    error.code === ErrorCode.RequestTimeout &&
    (error.data as { maxTotalTimeout?: unknown } | undefined)?.maxTotalTimeout !== undefined
  ) {
    return new ToolRuntimeError(
      `${where} did not finish within ${String((error.data as { maxTotalTimeout: unknown }).maxTotalTimeout)} ms (maxTotalTimeoutMs) although it kept reporting progress.`,
      { cause: error, toolName: context.toolName, provider: context.serverName, retryable: true },
    );
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return new ToolRuntimeError(
      `${where} did not answer within ${context.timeoutMs} ms (timeoutMs); the server was sent notifications/cancelled.`,
      { cause: error, toolName: context.toolName, provider: context.serverName, retryable: true },
    );
  }
  if (failure.sessionClosed || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)) {
    const note = context.stderr ? ` ${SERVER_STDERR_NOTE}` : '';
    return attachServerStderr(
      new ToolRuntimeError(
        `The connection to MCP server '${context.serverName}' closed while tool '${context.toolName}' was running (the server may have crashed). The call was not retried because it may have had effects; the next call opens a new session.${note}`,
        { cause: error, toolName: context.toolName, provider: context.serverName, retryable: true },
      ),
      context.stderr ?? '',
    );
  }
  return new ToolRuntimeError(`${where} failed: ${describeError(error)}`, {
    cause: error,
    toolName: context.toolName,
    provider: context.serverName,
  });
}
