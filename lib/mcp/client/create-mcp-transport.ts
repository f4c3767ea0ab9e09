import type { ChildProcess } from 'node:child_process';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { createEventStreamFetch } from './create-event-stream-fetch';
import { createLimitedFetch } from './create-limited-fetch';
import { createScreenedFetch } from './create-screened-fetch';
import { endChildOnExit } from './end-children-on-exit';
import { watchStepUp } from './auth/run-with-sign-in';
import { McpMessageScreen } from './mcp-message-screen';
import type { ResolvedMcpConfig } from './resolve-mcp-config';
import { ScreenedReadBuffer } from './screened-read-buffer';

/** Most characters of a stdio server's stderr kept for error messages. */
const STDERR_TAIL_CHARS = 2_000;

/** A transport plus what the session needs to report and clean up. */
export interface McpTransportHandle {
  readonly transport: Transport;
  /** Checks every message from the server before the SDK parses it; tells the errors of refused answers. */
  readonly screen: McpMessageScreen;
  /** The last characters the stdio server wrote to stderr (empty for HTTP). */
  stderrTail(): string;
  /**
   * `true` while something is in flight (the child process, its pipes and open event streams keep this
   * process alive); `false` when idle (they do not, so a script that forgot `close()` still exits).
   */
  setActive(active: boolean): void;
  /** http: settles when the standalone event stream opened or was refused (see `firstStream`). */
  streamReady?: () => Promise<void>;
}

/**
 * Builds the SDK transport of a configuration. stdio runs only the configured command (no shell) with the
 * SDK's minimal environment plus the configured variables, and the child is ended when this process exits;
 * HTTP transports get a size-limited fetch and the configured headers, and never follow redirects to
 * another origin. Every message from the server passes an {@link McpMessageScreen} first (stdio: the
 * transport's line buffer is replaced by a {@link ScreenedReadBuffer}; HTTP: a {@link createScreenedFetch}).
 */
export function createMcpTransport(
  config: ResolvedMcpConfig,
  onOverflow: (error: ToolRuntimeError) => void,
): McpTransportHandle {
  const screen = new McpMessageScreen({ serverName: config.serverName, maxDepth: config.maxMessageDepth });
  const holder: { transport?: Transport } = {};
  // Answers a refused request of the server; a transport that is gone has no one to answer.
  const reply = (message: JSONRPCMessage) => void holder.transport?.send(message).catch(() => undefined);
  if (config.transport === 'stdio') {
    const transport = new StdioClientTransport({
      command: config.command as string,
      args: [...config.args],
      env: { ...config.env },
      cwd: config.cwd,
      stderr: 'pipe',
      maxBufferSize: config.maxMessageBytes,
    });
    // The SDK's transport keeps its line buffer in a private field and offers no hook between reading a line
    // and parsing it; the screened buffer has the same interface (specs fail if the field is renamed).
    (transport as unknown as { _readBuffer: ScreenedReadBuffer })._readBuffer = new ScreenedReadBuffer(
      config.maxMessageBytes,
      screen,
      reply,
    );
    watchSent(transport, screen);
    holder.transport = transport;
    let tail = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    const start = transport.start.bind(transport);
    transport.start = async () => {
      const started = start();
      // The SDK spawns synchronously inside start(); its child is private, so it is read right here.
      const child = childOf(transport);
      if (child) endChildOnExit(child);
      await started;
    };
    return {
      transport,
      screen,
      stderrTail: () => tail.trim(),
      setActive: (active) => setChildActive(childOf(transport), active),
    };
  }
  const streams = createEventStreamFetch(fetch);
  const url = new URL((config.url as URL).href);
  const limitedFetch = watchStepUp(
    createScreenedFetch(
      screen,
      reply,
      url,
      createLimitedFetch(config.maxMessageBytes, onOverflow, streams.fetch),
    ),
    config.auth,
  );
  const authProvider = config.auth?.provider;
  const requestInit: RequestInit = { headers: { ...config.headers } };
  const transport =
    config.transport === 'sse'
      ? new SSEClientTransport(url, { fetch: limitedFetch, requestInit, authProvider })
      : new StreamableHTTPClientTransport(url, {
          fetch: limitedFetch,
          requestInit,
          authProvider,
          reconnectionOptions: {
            maxRetries: 2,
            initialReconnectionDelay: 200,
            maxReconnectionDelay: 2_000,
            reconnectionDelayGrowFactor: 2,
          },
        });
  watchSent(transport, screen);
  holder.transport = transport;
  return {
    transport,
    screen,
    stderrTail: () => '',
    setActive: (active) => streams.setActive(active),
    streamReady: config.transport === 'http' ? streams.firstStream : undefined,
  };
}

/** Tells the screen of every message sent, so it knows which request an answer belongs to. */
function watchSent(transport: Transport, screen: McpMessageScreen): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    screen.noteSent(message);
    return send(message, options);
  };
}

function childOf(transport: StdioClientTransport): ChildProcess | undefined {
  return (transport as unknown as { _process?: ChildProcess })._process;
}

function setChildActive(child: ChildProcess | undefined, active: boolean): void {
  if (!child) return;
  for (const handle of [child, child.stdin, child.stdout, child.stderr]) {
    const holder = handle as { ref?: () => void; unref?: () => void } | null;
    if (active) holder?.ref?.();
    else holder?.unref?.();
  }
}
