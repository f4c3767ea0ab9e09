import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallGate } from '../serve/call-gate';
import type { McpRevisionEndpoint } from '../serve/mcp-revision-endpoint';
import type { ServableAgent } from '../../agents/servable-agent';
import type { SharedSessionState } from '../serve/shared-session-state';
import { createSessionMcpServer, resolveInteractionTimeoutMs } from './create-mcp-server';
import type { McpServerOptions } from './create-mcp-server';
import { FastToolCalls } from './fast-tool-calls';
import type { FastRequestScope } from './fast-tool-calls';
import { isAnsweredTransportError } from './is-answered-transport-error';
import { newSessionToolCalls } from './session-tool-calls';
import type { SessionToolCalls } from './session-tool-calls';

/** Options of {@link StatelessEndpoint}. */
export interface StatelessEndpointOptions {
  /** Stateless mode: most calls running at once over every request. */
  readonly maxConcurrentStatelessCalls: number;
  readonly enableJsonResponse: boolean;
  /** Where served tasks live when `serverOptions.taskStore` is unset (its `tasks`; nothing else is shared). */
  readonly sharedState?: SharedSessionState;
  /** Options of every MCP server built (one per session, or one per stateless request). */
  readonly serverOptions: McpServerOptions;
  readonly onError?: (error: unknown) => void;
}

/**
 * The stateless 2025-11-25 endpoint: every POST is answered on its own, by the fast path or by an SDK server
 * and transport built for that request alone (closed when the response ends, which aborts its calls); the
 * calls of every request share one gate of `maxConcurrentStatelessCalls`.
 */
export class StatelessEndpoint implements McpRevisionEndpoint {
  readonly methods: readonly string[] = Object.freeze(['POST']);
  readonly sessionCount = 0;
  // The tools/list and tools/call handling both paths run (the SDK's request handlers and the fast path).
  private readonly calls: SessionToolCalls;
  private readonly fast: FastToolCalls;

  constructor(
    agent: ServableAgent,
    private readonly options: StatelessEndpointOptions,
  ) {
    // Each request gets its own server (and per-request gate); this one caps them all together.
    const sharedCallGate = new CallGate(options.maxConcurrentStatelessCalls);
    const serverOptions = {
      ...options.serverOptions,
      taskStore: options.serverOptions.taskStore ?? options.sharedState?.tasks,
    };
    this.calls = newSessionToolCalls(
      agent,
      { ...serverOptions, sharedCallGate },
      resolveInteractionTimeoutMs(serverOptions.interactionTimeoutMs),
    );
    this.fast = new FastToolCalls(this.calls);
  }

  /** Answers one POST with a server of its own (or on the fast path, without one). */
  async handle(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    const fast = this.fast.match(request, body);
    if (fast) {
      const scope: FastRequestScope = {
        state: this.calls.newSessionState(),
        sessionId: null,
        server: NO_CLIENT,
      };
      if (this.fast.canRun(fast, scope)) {
        await this.fast.answer(fast, scope, request, response);
        return;
      }
    }
    // Only requests the fast path does not take build an SDK server and transport.
    const server = createSessionMcpServer(
      this.calls,
      this.calls.newSessionState(),
      this.options.serverOptions,
      true,
    );
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: this.options.enableJsonResponse,
    });
    transport.onerror = (error) => {
      // The SDK reports every rejected request here too; those are answered already.
      if (!isAnsweredTransportError(error)) this.options.onError?.(error);
    };
    await server.connect(transport);
    // A client that disconnects ends its request: the server closes, which aborts its running calls.
    response.once('close', () => void server.close().catch(() => undefined));
    await transport.handleRequest(request, response, body);
  }

  /** Stops the calls and tasks running (tasks recorded `failed` while the task store is still reachable). */
  async close(): Promise<void> {
    await this.calls.close();
  }
}

/** A stateless request's client: it declared nothing (no initialize reached this server). */
const NO_CLIENT: FastRequestScope['server'] = Object.freeze({ getClientCapabilities: () => undefined });
