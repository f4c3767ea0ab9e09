import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { assertKnownOptions, defineKnownOptions } from '../runtime/assert-known-options';
import { buildMcpServer } from '../mcp/rev2025-11-25/create-mcp-server';
import type { McpServerOptions } from '../mcp/rev2025-11-25/create-mcp-server';
import type { ServableAgent } from '../agents/servable-agent';

/** Options of {@link serveStdio}. */
export interface ServeStdioOptions extends Omit<McpServerOptions, 'transport' | 'tokenSubject'> {
  /** Where requests come from (default `process.stdin`). */
  stdin?: Readable;
  /** Where responses go (default `process.stdout`; nothing else may write there). */
  stdout?: Writable;
}

/** The options of {@link serveStdio}, and advice for the names people pass instead. */
export const SERVE_STDIO_OPTIONS = defineKnownOptions<ServeStdioOptions>(
  'serveStdio()',
  {
    name: true,
    version: true,
    instructions: true,
    maxConcurrentCalls: true,
    sharedCallGate: true,
    buildContext: true,
    onError: true,
    onCallCanceled: true,
    interactionTimeoutMs: true,
    serverRequests: true,
    taskStore: true,
    maxTaskTtlMs: true,
    taskPollIntervalMs: true,
    maxSubscriptions: true,
    stdin: true,
    stdout: true,
  },
  {
    url: 'stdio serves on stdin/stdout; to serve over HTTP use startAgentServer(agent, { url })',
    token:
      'a stdio server is reached only by the process that started it; to require a token, serve over HTTP',
  },
);

/** A running stdio server. */
export interface StdioServerHandle {
  /** Resolves when the client closes stdin or {@link close} is called. */
  readonly closed: Promise<void>;
  /** Stops serving: the tasks the connection runs stop (recorded `failed`), then the server closes. */
  close(): Promise<void>;
}

/**
 * Serves an agent's tools over MCP on stdin/stdout (newline-delimited JSON-RPC), every call going through
 * `agent.callToolInContext`. Stops when the client closes stdin (its running tasks stop then, recorded
 * `failed`: the server shut down while they ran).
 *
 * @throws ToolDefinitionError for an option that is not known.
 */
export async function serveStdio(
  agent: ServableAgent,
  options: ServeStdioOptions = {},
): Promise<StdioServerHandle> {
  assertKnownOptions(options, SERVE_STDIO_OPTIONS);
  const { stdin = process.stdin, stdout = process.stdout, ...serverOptions } = options;
  const { server, calls } = buildMcpServer(agent, { ...serverOptions, transport: 'stdio' });
  const transport = new StdioServerTransport(stdin, stdout);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  // The connection's tasks stop with it (recorded `failed` before the server closes).
  const stop = async (): Promise<void> => {
    await calls.close();
    await server.close();
  };
  server.onclose = () => {
    void calls.close().finally(resolveClosed);
  };
  const onEnd = () => void stop().catch(() => resolveClosed());
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  await server.connect(transport);
  return {
    closed,
    close: async () => {
      stdin.off('end', onEnd);
      stdin.off('close', onEnd);
      await stop();
      resolveClosed();
    },
  };
}
