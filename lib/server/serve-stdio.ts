import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from './create-mcp-server';
import type { McpServerOptions } from './create-mcp-server';
import type { ServableAgent } from './servable-agent';

/** Options of {@link serveStdio}. */
export interface ServeStdioOptions extends Omit<McpServerOptions, 'transport'> {
  /** Where requests come from (default `process.stdin`). */
  stdin?: Readable;
  /** Where responses go (default `process.stdout`; nothing else may write there). */
  stdout?: Writable;
}

/** A running stdio server. */
export interface StdioServerHandle {
  /** Resolves when the client closes stdin or {@link close} is called. */
  readonly closed: Promise<void>;
  /** Stops serving. */
  close(): Promise<void>;
}

/**
 * Serves an agent's tools over MCP on stdin/stdout (newline-delimited JSON-RPC), every call going through
 * `agent.callToolInContext`. Stops when the client closes stdin.
 */
export async function serveStdio(
  agent: ServableAgent,
  options: ServeStdioOptions = {},
): Promise<StdioServerHandle> {
  const { stdin = process.stdin, stdout = process.stdout, ...serverOptions } = options;
  const server = createMcpServer(agent, { ...serverOptions, transport: 'stdio' });
  const transport = new StdioServerTransport(stdin, stdout);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  server.onclose = () => resolveClosed();
  const onEnd = () => void server.close().catch(() => resolveClosed());
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  await server.connect(transport);
  return {
    closed,
    close: async () => {
      stdin.off('end', onEnd);
      stdin.off('close', onEnd);
      await server.close();
      resolveClosed();
    },
  };
}
