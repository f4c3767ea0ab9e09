import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallToolRequest, CallToolResult, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import * as z from 'zod';
import { ToolInputError } from '../../errors/tool-input-error';
import type { RunContext } from '../../runtime/run-context';
import { registerCatalogHandlers } from '../serve/catalog/register-catalog-handlers';
import { resolveMaxSubscriptions } from '../serve/catalog/resource-subscriptions';
import { servedCatalogOf, toCatalogCapabilities } from '../serve/catalog/servable-catalog';
import type { TaskStore } from '../../tasks/task-store';
import type { ServableAgent } from '../../agents/servable-agent';
import { checkTaskRequest } from './tasks/check-task-request';
import { registerTaskHandlers, SERVED_TASKS_CAPABILITY } from './tasks/register-task-handlers';
import { startServedTask } from './tasks/start-served-task';
import type { ServedCallInfo } from '../wire/served-call-info';
import { newSessionToolCalls } from './session-tool-calls';
import type { SessionToolCalls } from './session-tool-calls';
import { servedTasksOf } from './tasks/served-tasks-of';
import type { ServedSessionState } from '../serve/served-tool-calls';

export { DEFAULT_MAX_CONCURRENT_CALLS, TOO_MANY_CALLS_ERROR_CODE } from '../serve/served-tool-calls';

export type { ServedCallInfo } from '../wire/served-call-info';

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** The MCP server name (default: the card's name). */
  name?: string;
  /** The MCP server version (default: the card's version, else `0.0.0`). */
  version?: string;
  /** Instructions sent to clients at initialize (default: the card's description). */
  instructions?: string;
  /** Most calls running at once on this server instance (one session); more are refused (default 16). */
  maxConcurrentCalls?: number;
  /**
   * A gate shared with other servers (every stateless request of one endpoint): a call must also find a
   * slot there, else it is refused like one over `maxConcurrentCalls`.
   */
  sharedCallGate?: { readonly limit: number; tryEnter(): boolean; leave(): void };
  /**
   * Builds the RunContext of one call; it must honour `info.signal` (e.g. `session.child({ signal })` to
   * count calls against a per-session budget). Default: `new RunContext({ signal, sessionId })`.
   */
  buildContext?: (info: ServedCallInfo) => RunContext;
  /**
   * Told about internal failures: errors that are not Protolink errors, and policies or approval handlers
   * that failed (see `isCallerFacingError`); their details never reach the client.
   */
  onError?: (error: unknown, toolName: string) => void;
  /** How calls arrive, for {@link ServedCallInfo.transport} (default `http`). */
  transport?: 'http' | 'stdio';
  /**
   * Told when the client cancels a running call (no response will be sent for it), so a transport can
   * release what it holds open for that request.
   */
  onCallCanceled?: (requestId: RequestId) => void;
  /**
   * Longest wait, in ms, for the client's answer when a tool asks the user (`context.elicit`, approval
   * through elicitation) or the client's model (`context.sample`) (default 300,000: a person may be slow).
   */
  interactionTimeoutMs?: number;
  /**
   * Whether the transport can carry requests to the client during a call (default true). False for HTTP with
   * `enableJsonResponse`: a call answered with one JSON body has no stream for `elicitation/create` or
   * `sampling/createMessage`, so `context.elicit()`/`sample()` fail at once with a clear error (and approval
   * is not routed through elicitation) instead of waiting for an answer that cannot come.
   */
  serverRequests?: boolean;
  /** Where served tasks live (default: the agent's `taskStore`, else a new `InMemoryTaskStore`). */
  taskStore?: TaskStore;
  /** The longest TTL a task gets (and the TTL of one asked without), in ms (default one hour). */
  maxTaskTtlMs?: number;
  /** The poll interval suggested to task clients, and how often the store is read while waiting, in ms (default 1,000). */
  taskPollIntervalMs?: number;
  /** The token subject of an authenticated server: its tasks belong to the token, not to one session. */
  tokenSubject?: string;
  /**
   * Most resources this server instance (one session) may be subscribed to at once; a `resources/subscribe`
   * beyond gets the JSON-RPC error -32029 (default 1,000).
   */
  maxSubscriptions?: number;
}

/** Default of {@link McpServerOptions.interactionTimeoutMs}. */
export const DEFAULT_INTERACTION_TIMEOUT_MS = 300_000;

/**
 * Checks `interactionTimeoutMs` (default {@link DEFAULT_INTERACTION_TIMEOUT_MS}).
 *
 * @throws ToolInputError when it is not a whole number of milliseconds of at least 1.
 */
export function resolveInteractionTimeoutMs(option: number | undefined): number {
  if (option === undefined) return DEFAULT_INTERACTION_TIMEOUT_MS;
  if (!Number.isSafeInteger(option) || option < 1) {
    throw new ToolInputError(
      `interactionTimeoutMs must be a whole number of milliseconds >= 1, got ${String(option)}; it bounds the wait for a client's answer to context.elicit() or context.sample().`,
    );
  }
  return option;
}

/**
 * Builds an MCP server (the SDK's low-level `Server`) that lists the agent's tools and runs every
 * `tools/call` through `agent.callToolInContext` with a RunContext whose signal aborts when the client
 * cancels. Results map to `structuredContent`/text; failures to `isError` results with a safe message;
 * an unknown tool to the JSON-RPC error `-32602`. Connect it to one transport; when it closes, the tasks it
 * runs stop (recorded `failed`: the server shut down while they ran).
 */
export function createMcpServer(agent: ServableAgent, options: McpServerOptions = {}): Server {
  const { server, calls } = buildMcpServer(agent, options);
  // The SDK has one onclose handler, the application's: this one runs before it, whoever sets it.
  let onclose: (() => void) | undefined;
  Object.defineProperty(server, 'onclose', {
    configurable: true,
    enumerable: true,
    get: () => () => {
      void calls.close();
      onclose?.();
    },
    set: (handler: (() => void) | undefined) => {
      onclose = handler;
    },
  });
  return server;
}

/**
 * Builds the server of {@link createMcpServer} with its calls, whose `close()` stops the tasks it runs (the
 * caller closes them with the server).
 */
export function buildMcpServer(
  agent: ServableAgent,
  options: McpServerOptions = {},
): { server: Server; calls: SessionToolCalls } {
  resolveMaxSubscriptions(options.maxSubscriptions);
  const calls = newSessionToolCalls(
    agent,
    options,
    resolveInteractionTimeoutMs(options.interactionTimeoutMs),
  );
  return { server: createSessionMcpServer(calls, calls.newSessionState(), options), calls };
}

/**
 * Builds the SDK server of one session (or one stateless request, `stateless` true) whose `tools/list`,
 * `tools/call` and `logging/setLevel` run through `calls` with the session's `state` (gate, log level), the
 * same state the HTTP fast path uses for the session's other requests.
 */
export function createSessionMcpServer(
  calls: SessionToolCalls,
  state: ServedSessionState,
  options: McpServerOptions = {},
  stateless = false,
): Server {
  const card = calls.agent.card;
  // Resources, prompts and completions are declared (and served) only when the agent has some; tasks when a
  // tool supports them and someone can own them: not over stateless HTTP without a token, where nobody could
  // read a task back (a task call there is still answered, with the error that says why).
  const catalog = servedCatalogOf(calls.agent);
  const tasks = servedTasksOf(calls);
  const declaresTasks = tasks !== undefined && !(stateless && !tasks.ownedByToken);
  const server = new Server(
    { name: options.name ?? card.name, version: options.version ?? card.version ?? '0.0.0' },
    {
      capabilities: {
        tools: {},
        logging: {},
        ...toCatalogCapabilities(catalog),
        ...(declaresTasks ? { tasks: SERVED_TASKS_CAPABILITY } : {}),
      },
      instructions: options.instructions ?? (card.description || undefined),
      // The SDK builds a new Ajv (about 1 ms) per server for its own elicitInput(), which these servers never
      // use (answers to context.elicit() are checked by our validator); stateless serving builds a server per
      // request, so that cost would dominate every call.
      jsonSchemaValidator: NO_ELICITATION_VALIDATOR,
    },
  );
  // Replaces the SDK's handler: the level applies to the log messages of calls, sent on their own streams.
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    state.logLevel.level = request.params.level;
    return {};
  });
  server.setRequestHandler(ListToolsRequestSchema, () => calls.listTools());
  // The SDK checks tools/call requests against CallToolRequestSchema itself (-32602 when malformed); a strict
  // schema here would be parsed first and turn a malformed request into -32603 Internal error.
  // Over stdio the connection owns its tasks: no session id tells one client from the next.
  const stdioConnectionId = calls.transport === 'stdio' ? randomUUID() : undefined;
  if (tasks && declaresTasks) registerTaskHandlers(server, tasks, stdioConnectionId);
  server.setRequestHandler(LOOSE_CALL_TOOL_REQUEST, async (loose, extra): Promise<CallToolResult> => {
    const request = loose as unknown as CallToolRequest;
    if (tasks) {
      const task = checkTaskRequest(calls, request);
      if (task) {
        const call = { ...request.params, server, extra, sessionId: extra.sessionId ?? null };
        return (await startServedTask(calls, tasks, state, {
          toolName: call.name,
          args: call.arguments,
          sessionId: call.sessionId,
          server,
          extra,
          requestedTtl: task.ttl,
          stdioConnectionId,
        })) as unknown as CallToolResult;
      }
    }
    const onCanceled = options.onCallCanceled && (() => options.onCallCanceled?.(extra.requestId));
    if (onCanceled) extra.signal.addEventListener('abort', onCanceled, { once: true });
    try {
      return await calls.call(state, {
        toolName: request.params.name,
        args: request.params.arguments,
        sessionId: extra.sessionId ?? null,
        signal: extra.signal,
        server,
        extra,
      });
    } finally {
      if (onCanceled) extra.signal.removeEventListener('abort', onCanceled);
    }
  });
  if (catalog) registerCatalogHandlers(server, catalog, options);
  return server;
}

const NO_ELICITATION_VALIDATOR: jsonSchemaValidator = Object.freeze({
  getValidator: () => () => ({
    valid: false as const,
    data: undefined,
    errorMessage: 'Protolink servers do not request elicitation.',
  }),
});

const LOOSE_CALL_TOOL_REQUEST = z.object({
  method: z.literal(CallToolRequestSchema.shape.method.value),
  params: z.unknown(),
});
