import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ToolInputError } from '../errors/tool-input-error';
import { AGENT_SERVER_DEFAULTS } from './agent-server-options';
import type { AgentServerHandle, AgentServerOptions } from './agent-server-options';
import { McpEndpoint } from './http/mcp-endpoint';
import { RequestGuard } from './http/request-guard';
import { sendJsonRpcError } from './http/send-json-rpc-error';
import { resolveListenAddress } from './resolve-listen-address';
import type { ServableAgent } from './servable-agent';

/** The path of the MCP streamable-HTTP endpoint. */
export const MCP_PATH = '/mcp';
/** The path of the A2A agent card. */
export const AGENT_CARD_PATH = '/.well-known/agent.json';

/**
 * Serves an agent over HTTP: the A2A card at `/.well-known/agent.json` and the agent's tools as an MCP
 * streamable-HTTP endpoint at `/mcp`, every call going through `agent.callToolInContext`. Listens on the
 * card's URL (127.0.0.1 by default), refuses non-loopback interfaces unless asked, checks Host and Origin
 * (DNS rebinding), the optional bearer token, body size and per-session concurrency.
 *
 * @throws ToolInputError for a URL that cannot be served, a non-loopback host without `allowNonLoopback`,
 * bad limits, or a port that is taken.
 */
export async function startAgentServer(
  agent: ServableAgent,
  options: AgentServerOptions = {},
): Promise<AgentServerHandle> {
  const settings = { ...AGENT_SERVER_DEFAULTS, ...definedOnly(options) };
  assertPositive('maxBodyBytes', settings.maxBodyBytes);
  assertPositive('maxSessions', settings.maxSessions);
  assertPositive('sessionIdleTimeoutMs', settings.sessionIdleTimeoutMs);
  assertPositive('maxConcurrentCallsPerSession', settings.maxConcurrentCallsPerSession);
  if (settings.sessionMode !== 'stateful' && settings.sessionMode !== 'stateless') {
    throw new ToolInputError(
      `sessionMode must be 'stateful' or 'stateless', got '${String(settings.sessionMode)}'.`,
    );
  }
  const address = resolveListenAddress(options.url ?? pickCardUrl(agent.card.url), options.allowNonLoopback);
  const onError = options.onError;
  const endpoint = new McpEndpoint(agent, {
    sessionMode: settings.sessionMode,
    sessionIdleTimeoutMs: settings.sessionIdleTimeoutMs,
    maxSessions: settings.maxSessions,
    maxBodyBytes: settings.maxBodyBytes,
    enableJsonResponse: options.enableJsonResponse === true,
    onError,
    serverOptions: {
      maxConcurrentCalls: settings.maxConcurrentCallsPerSession,
      buildContext: options.buildContext,
      onError: onError && ((error) => onError(error)),
      transport: 'http',
    },
  });
  // Both are known once the port is: requests cannot arrive before listen() resolves.
  const state: { guard?: RequestGuard; baseUrl: string } = { baseUrl: '' };
  // Slow clients must not hold sockets forever: headers within 10 s, the whole request body within 30 s
  // (this bounds reading requests only; SSE responses stay open as long as the client reads).
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000 }, (request, response) => {
    route(request, response).catch((error: unknown) => {
      onError?.(error);
      if (!response.headersSent) sendJsonRpcError(response, 500, -32603, 'Internal error.');
      else response.end();
    });
  });
  const route = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const guard = state.guard;
    if (!guard) {
      request.resume();
      sendJsonRpcError(response, 503, -32000, 'Service Unavailable: the server is starting.');
      return;
    }
    const rejection = guard.checkOrigin(request);
    if (rejection) {
      request.resume();
      sendJsonRpcError(response, rejection.status, rejection.code, rejection.message, rejection.headers);
      return;
    }
    const path = (request.url ?? '/').split('?')[0];
    if (path === AGENT_CARD_PATH) {
      sendCard(request, response, agent, state.baseUrl);
      return;
    }
    if (path !== MCP_PATH) {
      request.resume();
      sendJsonRpcError(response, 404, -32601, `Not found: ${path}; the MCP endpoint is ${MCP_PATH}.`);
      return;
    }
    const denied = guard.checkToken(request);
    if (denied) {
      request.resume();
      sendJsonRpcError(response, denied.status, denied.code, denied.message, denied.headers);
      return;
    }
    await endpoint.handle(request, response);
  };
  await listen(server, address.host, address.port);
  const port = (server.address() as AddressInfo).port;
  const urlHost =
    address.hostname.includes(':') && !address.hostname.startsWith('[')
      ? `[${address.hostname}]`
      : address.hostname;
  const baseUrl = `http://${urlHost}:${port}`;
  state.baseUrl = baseUrl;
  state.guard = new RequestGuard({
    port,
    listenHostname: address.hostname,
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
    token: options.token,
  });
  let closing: Promise<void> | undefined;
  return {
    url: baseUrl,
    mcpUrl: `${baseUrl}${MCP_PATH}`,
    cardUrl: `${baseUrl}${AGENT_CARD_PATH}`,
    port,
    get sessionCount() {
      return endpoint.sessionCount;
    },
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        await endpoint.close();
        server.closeAllConnections();
        await stopped;
      })()),
  };
}

/** The card's URL when it is an HTTP(S) one (https is refused later, with advice); else the default. */
function pickCardUrl(url: string | undefined): string {
  return url && /^https?:\/\//i.test(url) ? url : AGENT_SERVER_DEFAULTS.url;
}

function sendCard(
  request: IncomingMessage,
  response: ServerResponse,
  agent: ServableAgent,
  baseUrl: string,
): void {
  request.resume();
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    sendJsonRpcError(response, 405, -32000, `Method not allowed: ${request.method}; use GET.`, {
      allow: 'GET, HEAD',
    });
    return;
  }
  const card = agent.card;
  const json = typeof card.toJSON === 'function' ? card.toJSON() : card;
  const document = typeof json === 'object' && json !== null ? { ...(json as Record<string, unknown>) } : {};
  // A card that asked for "any free port" advertises the port actually taken.
  if (typeof document.url !== 'string' || /:0\/?$/.test(document.url)) document.url = baseUrl;
  const body = JSON.stringify(document);
  response.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-cache',
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}

function listen(server: ReturnType<typeof createServer>, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        new ToolInputError(
          error.code === 'EADDRINUSE'
            ? `Cannot serve on ${host}:${port}: the port is in use; pick another port (or 0 for any free one).`
            : `Cannot serve on ${host}:${port}: ${error.message}`,
          { cause: error },
        ),
      );
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function assertPositive(name: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new ToolInputError(`${name} must be a positive number, got ${String(value)}.`);
  }
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
