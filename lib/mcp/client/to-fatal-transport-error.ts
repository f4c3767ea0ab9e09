import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import type { ResolvedMcpConfig } from './resolve-mcp-config';

/**
 * The error that ends a session, for an error its transport reported (`onerror`), or undefined when the
 * session lives on: an SSE session whose event stream broke once it was open (the session lives as long as
 * its stream), or a stdio line over `maxMessageBytes` (the SDK's buffer was cleared; the rest of the message
 * would be read as garbage).
 */
export function toFatalTransportError(
  error: Error,
  config: ResolvedMcpConfig,
  connected: boolean,
): ToolRuntimeError | undefined {
  if (config.transport === 'sse' && error instanceof SseError && connected) {
    return new ToolRuntimeError(
      `The event stream of MCP server '${config.serverName}' broke: ${error.message}`,
      { retryable: true },
    );
  }
  if (/ReadBuffer exceeded/.test(error.message)) {
    return new ToolRuntimeError(
      `The MCP server '${config.serverName}' sent a message larger than ${config.maxMessageBytes} bytes; it was refused.`,
    );
  }
  return undefined;
}
