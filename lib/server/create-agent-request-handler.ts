import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  SESSION_STORE_UNAVAILABLE_HTTP_STATUS,
  SESSION_STORE_UNAVAILABLE_RPC_CODE,
  SessionStoreUnavailableError,
} from '../errors/session-store-unavailable-error';
import { ToolInputError } from '../errors/tool-input-error';
import { assertKnownOptions } from '../runtime/assert-known-options';
import { AGENT_REQUEST_HANDLER_OPTIONS } from './agent-request-handler-options';
import type { AgentRequestHandlerOptions } from './agent-request-handler-options';
import { createInMemoryEventStoreFactory } from '../mcp/rev2025-11-25/create-in-memory-event-store-factory';
import { McpEndpoint } from './http/mcp-endpoint';
import type { McpEndpointOptions } from './http/mcp-endpoint';
import type { ResumableEventStore } from '../state/resumable-event-store';
import { RequestGuard } from './http/request-guard';
import { sendAgentCard } from './http/send-agent-card';
import { sendJsonRpcError } from '../mcp/wire/send-json-rpc-error';
import { resolveAgentServerSettings } from './resolve-agent-server-settings';
import type { AgentServerSettings } from './resolve-agent-server-settings';
import { resolveInteractionTimeoutMs } from '../mcp/rev2025-11-25/create-mcp-server';
import { DEFAULT_SESSION_BUS_MAX_BYTES } from '../state/session-bus';
import { loadRedisBackend } from './load-redis-backend';
import { toTokenSubject } from '../state/to-token-subject';
import { parsePublicUrl } from './parse-public-url';
import { resolveRedisOption } from './resolve-redis-option';
import type { RedisOption } from './resolve-redis-option';
import type { ServableAgent } from '../agents/servable-agent';
import { SharedStateConnection } from './shared-state-connection';
import { relayResourceUpdates } from '../mcp/serve/catalog/relay-resource-updates';
import { resolveMaxSubscriptions } from '../mcp/serve/catalog/resource-subscriptions';
import { checkTaskStoreLimitsOption } from './check-task-store-limits-option';
import type { TaskStoreLimits } from '../tasks/task-store-limits';
import type { ResourceUpdatesRelay } from '../mcp/serve/catalog/relay-resource-updates';

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
  /**
   * Resolves when the handler can serve: at once, or with `redis` once Redis is connected (else the first
   * MCP request connects). Await it at start to fail fast.
   *
   * @throws SessionStoreUnavailableError when Redis cannot be reached (a later call or request tries again).
   */
  ready(): Promise<void>;
  /** How many stateful MCP sessions are open. */
  readonly sessionCount: number;
  /** Closes every MCP session (their open streams end), then the Redis connections it opened. */
  close(): Promise<void>;
}

/**
 * Builds the request routing of an agent server, for mounting in an existing HTTP server (Express, Nest,
 * plain `node:http`): Host and Origin checks (DNS rebinding), the card, the bearer token, then the MCP
 * endpoint (sessions, body limit, JSON-RPC checks), every call going through `agent.callToolInContext`.
 * A body already parsed by a framework (`express.json()`) is used as is, within `maxBodyBytes`. With
 * `redis`, the sessions are shared through Redis, connected on the first MCP request (or by `ready()`); while
 * Redis cannot be reached MCP requests get 503 (`session store unavailable`).
 *
 * @throws ToolInputError for bad limits, an unknown `sessionMode`, a path that does not start with `/`, a
 *   `redis` that is neither a Redis URL nor a client, a bad `redisKeyPrefix`, or a missing `redis` package;
 *   ToolDefinitionError for an option that is not known, a bad `publicUrl`, or `redis` with stateless mode
 *   or with `eventStore`.
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
  const publicUrl = parsePublicUrl(options.publicUrl);
  const redis = resolveRedisOption({ ...options, sessionMode: settings.sessionMode });
  const taskStoreLimits = checkTaskStoreLimitsOption(options);
  const onError = options.onError;
  const endpointOptions: McpEndpointOptions = {
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
      taskStore: options.taskStore,
      maxTaskTtlMs: options.maxTaskTtlMs,
      taskPollIntervalMs: options.taskPollIntervalMs,
      tokenSubject: toTokenSubject(options.token ?? undefined),
      maxSubscriptions: resolveMaxSubscriptions(options.maxSubscriptionsPerSession),
    },
  };
  const endpoints = new EndpointSource(
    agent,
    endpointOptions,
    redis && connectionTo(redis, settings, options.maxEventStoreBytes, onError, taskStoreLimits),
  );
  const guards = new Map<number, RequestGuard>();
  const guardFor = (request: IncomingMessage): RequestGuard => {
    const port = options.port ?? request.socket.localPort ?? 0;
    let guard = guards.get(port);
    if (!guard) {
      guard = new RequestGuard({
        port,
        listenHostname: options.listenHostname ?? 'localhost',
        publicUrl,
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
      if (options.publicUrl === undefined) {
        sendAgentCard(request, response, agent, `http://${request.headers.host ?? ''}`);
      } else {
        sendAgentCard(request, response, agent, options.publicUrl, (url) => guard.isListenUrl(url));
      }
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
    const endpoint = await endpoints.get().catch((error: unknown) => {
      if (!(error instanceof SessionStoreUnavailableError)) throw error;
      request.resume();
      sendJsonRpcError(
        response,
        SESSION_STORE_UNAVAILABLE_HTTP_STATUS,
        SESSION_STORE_UNAVAILABLE_RPC_CODE,
        error.message,
        { 'retry-after': '1' },
      );
      return undefined;
    });
    if (endpoint) await endpoint.handle(request, response);
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
    ready: async () => {
      await endpoints.get();
    },
    get sessionCount() {
      return endpoints.current?.sessionCount ?? 0;
    },
    close: () => endpoints.close(),
  };
}

/**
 * The MCP endpoint of a handler: made at once, or with shared state once it is connected (the endpoint is
 * built on the connected state, so it is made on the first request that finds Redis reachable).
 */
class EndpointSource {
  current: McpEndpoint | undefined;
  private closing: Promise<void> | undefined;
  private relay: ResourceUpdatesRelay | undefined;

  constructor(
    private readonly agent: ServableAgent,
    private readonly options: McpEndpointOptions,
    private readonly connection: SharedStateConnection | undefined,
  ) {
    if (!connection) this.current = new McpEndpoint(agent, options);
  }

  /**
   * The endpoint; with shared state, once connected.
   *
   * @throws SessionStoreUnavailableError while the shared state cannot be reached, or once closed.
   */
  async get(): Promise<McpEndpoint> {
    if (this.current) return this.current;
    const sharedState = await this.connection!.get();
    // A request that waited for Redis while the handler closed must not make an endpoint nobody closes.
    if (this.closing) {
      throw new SessionStoreUnavailableError({ reason: 'the server is closed', retryable: false });
    }
    if (!this.current) {
      this.current = new McpEndpoint(this.agent, { ...this.options, sharedState });
      // Resource updates reported in any process reach the sessions subscribed in every other.
      this.relay = relayResourceUpdates(this.agent, sharedState.bus, this.options.onError);
    }
    return this.current;
  }

  /** Closes the endpoint's sessions first, then the connection to the shared state. */
  close(): Promise<void> {
    return (this.closing ??= (async () => {
      await this.current?.close();
      await this.relay?.stop();
      await this.connection?.close();
    })());
  }
}

function connectionTo(
  redis: RedisOption,
  settings: AgentServerSettings,
  maxEventStoreBytes: number | undefined,
  onError: ((error: unknown) => void) | undefined,
  taskStoreLimits: TaskStoreLimits | undefined,
): SharedStateConnection {
  const createRedisBackend = loadRedisBackend();
  let lastReported: string | undefined;
  return new SharedStateConnection(() =>
    createRedisBackend({
      redis: redis.redis,
      keyPrefix: redis.keyPrefix,
      idleTimeoutMs: settings.sessionIdleTimeoutMs,
      eventLog: {
        maxBytes: settings.maxEventStoreBytesPerSession,
        resumeWindowMs: settings.eventStoreResumeWindowMs,
      },
      tasks: taskStoreLimits,
      // Whatever one request body carries (a client's answer) fits on the bus.
      bus: { maxBytes: Math.max(DEFAULT_SESSION_BUS_MAX_BYTES, 2 * settings.maxBodyBytes) },
      // Unset, the backend's default: 64 MiB, or half of Redis's maxmemory when that is less.
      maxTotalBytes: maxEventStoreBytes,
      // A Redis that stays down fails every reconnect the same way: told once, not every 2 s.
      onConnectionError: (error) => {
        const message = error instanceof Error ? error.message : String(error);
        if (message === lastReported) return;
        lastReported = message;
        onError?.(error);
      },
    }),
  );
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
