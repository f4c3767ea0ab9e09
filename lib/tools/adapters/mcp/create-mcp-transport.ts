import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ToolRuntimeError } from '../../../errors/tool-runtime-error';
import { createLimitedFetch } from './create-limited-fetch';
import type { ResolvedMcpConfig } from './resolve-mcp-config';

/** Most characters of a stdio server's stderr kept for error messages. */
const STDERR_TAIL_CHARS = 2_000;

/** A transport plus what the session needs to report and clean up. */
export interface McpTransportHandle {
  readonly transport: Transport;
  /** The last characters the stdio server wrote to stderr (empty for HTTP). */
  stderrTail(): string;
}

/**
 * Builds the SDK transport of a configuration. stdio runs only the configured command (no shell) with the
 * SDK's minimal environment plus the configured variables; HTTP transports get a size-limited fetch and
 * the configured headers, and never follow redirects to another origin.
 */
export function createMcpTransport(
  config: ResolvedMcpConfig,
  onOverflow: (error: ToolRuntimeError) => void,
): McpTransportHandle {
  if (config.transport === 'stdio') {
    const transport = new StdioClientTransport({
      command: config.command as string,
      args: [...config.args],
      env: { ...config.env },
      cwd: config.cwd,
      stderr: 'pipe',
      maxBufferSize: config.maxMessageBytes,
    });
    let tail = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    return { transport, stderrTail: () => tail.trim() };
  }
  const fetch = createLimitedFetch(config.maxMessageBytes, onOverflow);
  const requestInit: RequestInit = { headers: { ...config.headers } };
  const url = new URL((config.url as URL).href);
  const transport =
    config.transport === 'sse'
      ? new SSEClientTransport(url, { fetch, requestInit })
      : new StreamableHTTPClientTransport(url, {
          fetch,
          requestInit,
          reconnectionOptions: {
            maxRetries: 2,
            initialReconnectionDelay: 200,
            maxReconnectionDelay: 2_000,
            reconnectionDelayGrowFactor: 2,
          },
        });
  return { transport, stderrTail: () => '' };
}
