import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ProtolinkError } from '../../../errors/protolink-error';
import { ToolCancelledError } from '../../../errors/tool-cancelled-error';
import { ToolRuntimeError } from '../../../errors/tool-runtime-error';
import type { McpCallFailure } from './mcp-session';
import { describeError } from './mcp-session';

/** What {@link toMcpCallError} needs to word the error. */
export interface McpCallErrorContext {
  readonly toolName: string;
  readonly serverName: string;
  readonly timeoutMs: number;
  /** The caller's signal, to tell a cancellation from a timeout (the SDK reports both alike). */
  readonly signal?: AbortSignal;
  /** The tail of the stdio server's stderr, shown when the server died. */
  readonly stderr?: string;
}

/** Whether a failure means the HTTP server no longer knows the session (HTTP 404): the call never ran. */
export function isSessionExpired(failure: McpCallFailure): boolean {
  const error = failure.error as { code?: unknown; message?: unknown } | undefined;
  if (error && error.code === 404) return true;
  return (
    typeof error?.message === 'string' &&
    /\(HTTP 404\)|\b404\b.*session|session.*\b404\b/i.test(error.message)
  );
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
    const stderr = context.stderr ? ` Server stderr: ${context.stderr}` : '';
    return new ToolRuntimeError(
      `The connection to MCP server '${context.serverName}' closed while tool '${context.toolName}' was running (the server may have crashed). The call was not retried because it may have had effects; the next call opens a new session.${stderr}`,
      { cause: error, toolName: context.toolName, provider: context.serverName, retryable: true },
    );
  }
  return new ToolRuntimeError(`${where} failed: ${describeError(error)}`, {
    cause: error,
    toolName: context.toolName,
    provider: context.serverName,
  });
}
