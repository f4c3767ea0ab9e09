import type { IncomingMessage, ServerResponse } from 'node:http';
import { ToolInputError } from '../errors/tool-input-error';
import { assertKnownOptions } from '../runtime/assert-known-options';
import { AGENT_REQUEST_HANDLER_OPTIONS } from './agent-request-handler-options';
import type { AgentRequestHandlerOptions } from './agent-request-handler-options';
import { createInMemoryEventStoreFactory } from './http/create-in-memory-event-store-factory';
import { McpEndpoint } from './http/mcp-endpoint';
import type { ResumableEventStore } from './http/resumable-event-store';
import { RequestGuard } from './http/request-guard';
import { sendAgentCard } from './http/send-agent-card';
import { sendJsonRpcError } from './http/send-json-rpc-error';
import { resolveAgentServerSettings } from './resolve-agent-server-settings';
import type { AgentServerSettings } from './resolve-agent-server-settings';
import { resolveInteractionTimeoutMs } from './create-mcp-server';
import type { ServableAgent } from './servable-agent';

export type { AgentRequestHandlerOptions } from './agent-request-handler-options';

/** The default path of the MCP streamable-HTTP endpoint. */
export const MCP_PATH = '/mcp';
/** The default path of the A2A agent card. */
export const AGENT_CARD_PATH = '/.well-known/agent.json';

/** A request handler that serves an agent's card and MCP endpoint inside any Node HTTP server. */
export interface AgentRequestHandler {
  /**
   * Handles the request when its path is the MCP endpoint or the card, and resolves true; resolves false,
   * without touching the request, for any other path (so a framework can call `next()`). Never rejects:
   * unexpected errors go to `onError` and the client gets a 500.
   */
  handle(request: IncomingMessage, response: ServerResponse): Promise<boolean>;
  /**
   * Whether `handle` would handle this request (its path is the MCP endpoint or the card, or `unknownPaths`
   * is `reject`), decided from the URL alone: for frameworks that must take over a response before handing
   * it on (a Fastify hook hijacks the reply first).
   */
  handles(request: IncomingMessage): boolean;
  /** How many stateful MCP sessions are open. */
  readonly sessionCount: number;
  /** Closes every MCP session (their open streams end). */
  close(): Promise<void>;
}

/**
 * Builds the request routing of an agent server, for mounting in an existing HTTP server (Express, Nest,
 * plain `node:http`): Host and Origin checks (DNS rebinding), the card, the bearer token, then the MCP
 * endpoint (sessions, body limit, JSON-RPC checks), every call going through `agent.callToolInContext`.
 * A body already parsed by a framework (`express.json()`) is used as is, within `maxBodyBytes`.
 *
 * @throws ToolInputError for bad limits, an unknown `sessionMode`, or a path that does not start with `/`;
 *   ToolDefinitionError for an option that is not known.
 */
export function createAgentRequestHandler(
  agent: ServableAgent,
  options: AgentRequestHandlerOptions = {},
): AgentRequestHandler {
  assertKnownOptions(options, AGENT_REQUEST_HANDLER_OPTIONS);
  const settings = resolveAgentServerSettings(options);
  const mcpPath = checkPath('path', options.path ?? MCP_PATH);
  const cardPath =
    options.cardPath === null ? null : checkPath('cardPath', options.cardPath ?? AGENT_CARD_PATH);
  if (mcpPath === cardPath) throw new ToolInputError(`path and cardPath must differ, both are '${mcpPath}'.`);
  const onError = options.onError;
  const endpoint = new McpEndpoint(agent, {
    sessionMode: settings.sessionMode,
    sessionIdleTimeoutMs: settings.sessionIdleTimeoutMs,
    maxSessions: settings.maxSessions,
    maxSessionsPerClient: settings.maxSessionsPerClient,
    maxConcurrentStatelessCalls: settings.maxConcurrentStatelessCalls,
    maxBodyBytes: settings.maxBodyBytes,
    enableJsonResponse: options.enableJsonResponse === true,
    createEventStore: resolveEventStore(options.eventStore, settings),
    sseRetryMs: resolveRetryMs(options.sseRetryMs),
    maxGetStreamsPerSession: settings.maxGetStreamsPerSession,
    onError,
    serverOptions: {
      maxConcurrentCalls: settings.maxConcurrentCallsPerSession,
      buildContext: options.buildContext,
      onError: onError && ((error, toolName) => onError(error, toolName)),
      transport: 'http',
      interactionTimeoutMs: resolveInteractionTimeoutMs(options.interactionTimeoutMs),
      serverRequests: options.enableJsonResponse !== true,
    },
  });
  const guards = new Map<number, RequestGuard>();
  const guardFor = (request: IncomingMessage): RequestGuard => {
    const port = options.port ?? request.socket.localPort ?? 0;
    let guard = guards.get(port);
    if (!guard) {
      guard = new RequestGuard({
        port,
        listenHostname: options.listenHostname ?? 'localhost',
        allowedHosts: options.allowedHosts,
        allowedOrigins: options.allowedOrigins,
        token: options.token,
      });
      guards.set(port, guard);
    }
    return guard;
  };
  const pathOf = (request: IncomingMessage): string =>
    ((request as { originalUrl?: string }).originalUrl ?? request.url ?? '/').split('?')[0]!;
  const handles = (request: IncomingMessage): boolean => {
    const path = pathOf(request);
    return path === mcpPath || path === cardPath || options.unknownPaths === 'reject';
  };
  const route = async (request: IncomingMessage, response: ServerResponse): Promise<boolean> => {
    if (!handles(request)) return false;
    const path = pathOf(request);
    const guard = guardFor(request);
    const rejection = guard.checkOrigin(request);
    if (rejection) {
      request.resume();
      sendJsonRpcError(response, rejection.status, rejection.code, rejection.message, rejection.headers);
      return true;
    }
    if (path === cardPath) {
      sendAgentCard(request, response, agent, options.publicUrl ?? `http://${request.headers.host ?? ''}`);
      return true;
    }
    if (path !== mcpPath) {
      request.resume();
      sendJsonRpcError(response, 404, -32601, `Not found: ${path}; the MCP endpoint is ${mcpPath}.`);
      return true;
    }
    const denied = guard.checkToken(request);
    if (denied) {
      request.resume();
      sendJsonRpcError(response, denied.status, denied.code, denied.message, denied.headers);
      return true;
    }
    await endpoint.handle(request, response);
    return true;
  };
  return {
    handles,
    handle: (request, response) =>
      route(request, response).catch((error: unknown) => {
        onError?.(error);
        if (!response.headersSent) sendJsonRpcError(response, 500, -32603, 'Internal error.');
        else response.end();
        return true;
      }),
    get sessionCount() {
      return endpoint.sessionCount;
    },
    close: () => endpoint.close(),
  };
}

function checkPath(name: string, path: string): string {
  if (typeof path !== 'string' || !path.startsWith('/') || /[?#\s]/.test(path)) {
    throw new ToolInputError(
      `${name} must be a URL path starting with '/' (like '/mcp'), got '${String(path)}'.`,
    );
  }
  return path;
}

/** Default of `sseRetryMs`. */
const DEFAULT_SSE_RETRY_MS = 1_000;

function resolveEventStore(
  option: AgentRequestHandlerOptions['eventStore'],
  settings: AgentServerSettings,
): (() => ResumableEventStore) | undefined {
  if (option === false) return undefined;
  if (option === undefined) {
    // One budget per server: the default stores of all its sessions share it.
    return createInMemoryEventStoreFactory({
      maxBytesPerSession: settings.maxEventStoreBytesPerSession,
      maxBytes: settings.maxEventStoreBytes,
      resumeWindowMs: settings.eventStoreResumeWindowMs,
    });
  }
  if (typeof option !== 'function') {
    throw new ToolInputError(
      'eventStore must be false or a function returning a store for one session (storeEvent, replayEventsAfter).',
    );
  }
  return option;
}

function resolveRetryMs(option: number | undefined): number {
  if (option === undefined) return DEFAULT_SSE_RETRY_MS;
  if (!Number.isSafeInteger(option) || option < 0) {
    throw new ToolInputError(
      `sseRetryMs must be a whole number of milliseconds >= 0, got ${String(option)}.`,
    );
  }
  return option;
}
