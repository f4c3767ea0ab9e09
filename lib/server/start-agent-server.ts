import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ToolInputError } from '../errors/tool-input-error';
import { assertKnownOptions } from '../runtime/assert-known-options';
import { AGENT_SERVER_DEFAULTS, AGENT_SERVER_OPTIONS } from '../agents/agent-server-options';
import type { AgentServerHandle, AgentServerOptions } from '../agents/agent-server-options';
import { AGENT_CARD_PATH, createAgentRequestHandler, MCP_PATH } from './create-agent-request-handler';
import type { AgentRequestHandler } from './create-agent-request-handler';
import { sendJsonRpcError } from '../mcp/wire/send-json-rpc-error';
import { resolveAgentServerSettings } from './resolve-agent-server-settings';
import { resolveListenAddress } from './resolve-listen-address';
import { parsePublicUrl } from './parse-public-url';
import { resolveRedisOption } from './resolve-redis-option';
import type { ServableAgent } from '../agents/servable-agent';

export { MCP_PATH, AGENT_CARD_PATH };

/**
 * Serves an agent over HTTP: the A2A card at `/.well-known/agent.json` and the agent's tools as an MCP
 * streamable-HTTP endpoint at `/mcp`, every call going through `agent.callToolInContext`. Listens on the
 * card's URL (127.0.0.1 by default), refuses non-loopback interfaces unless asked, checks Host and Origin
 * (DNS rebinding), the optional bearer token, body size and per-session concurrency, and bounds slow and idle
 * clients (header and request time limits, keep-alive timeout, a connection cap). With `redis` it connects
 * to Redis before it resolves, and shares the sessions through it (see docs/scaling.md).
 *
 * @throws ToolInputError for a URL that cannot be served, a non-loopback host without `allowNonLoopback`,
 * bad limits, a port that is taken, a `redis` that is neither a Redis URL nor a client, a bad
 * `redisKeyPrefix`, or a missing `redis` package; ToolDefinitionError for an option that is not known, a bad
 * `publicUrl`, or `redis` with stateless mode or with `eventStore`; SessionStoreUnavailableError when Redis
 * cannot be reached (nothing is left listening).
 */
export async function startAgentServer(
  agent: ServableAgent,
  options: AgentServerOptions = {},
): Promise<AgentServerHandle> {
  assertKnownOptions(options, AGENT_SERVER_OPTIONS);
  const settings = resolveAgentServerSettings(options);
  // Checked again by the handler; here so that a refused option never takes the port, even briefly.
  parsePublicUrl(options.publicUrl);
  resolveRedisOption({ ...options, sessionMode: settings.sessionMode });
  const address = resolveListenAddress(options.url ?? pickCardUrl(agent.card.url), options.allowNonLoopback);
  // Known once the port is: requests cannot arrive before listen() resolves.
  const state: { handler?: AgentRequestHandler } = {};
  // Slow clients must not hold sockets forever: headers within 10 s, the whole request within 30 s by default
  // (this bounds reading requests only; SSE responses stay open as long as the client reads). Node checks
  // both only every `connectionsCheckingInterval` (30 s by default), so it is set to a tenth of the limit.
  const server = createServer(
    {
      headersTimeout: settings.headersTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      keepAliveTimeout: settings.keepAliveTimeoutMs,
      connectionsCheckingInterval: checkingInterval(settings.headersTimeoutMs),
    },
    (request, response) => {
      if (state.handler) {
        void state.handler.handle(request, response);
        return;
      }
      request.resume();
      sendJsonRpcError(response, 503, -32000, 'Service Unavailable: the server is starting.');
    },
  );
  // Beyond the cap Node closes new connections at once (before any byte is read).
  server.maxConnections = settings.maxConnections;
  await listen(server, address.host, address.port);
  const port = (server.address() as AddressInfo).port;
  const urlHost =
    address.hostname.includes(':') && !address.hostname.startsWith('[')
      ? `[${address.hostname}]`
      : address.hostname;
  const baseUrl = `http://${urlHost}:${port}`;
  // The listening server's own options stay here: the handler refuses them (its host server owns them).
  const {
    url: _url,
    allowNonLoopback: _allowNonLoopback,
    headersTimeoutMs: _headersTimeoutMs,
    requestTimeoutMs: _requestTimeoutMs,
    keepAliveTimeoutMs: _keepAliveTimeoutMs,
    maxConnections: _maxConnections,
    ...handlerOptions
  } = options;
  let active: ReturnType<typeof createAgentRequestHandler>;
  try {
    active = createAgentRequestHandler(agent, {
      ...handlerOptions,
      port,
      listenHostname: address.hostname,
      publicUrl: options.publicUrl ?? baseUrl,
      unknownPaths: 'reject',
    });
  } catch (error) {
    // A refused option must not leave the port taken by a server nobody can close.
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }
  try {
    // With redis: connected before the server says it is up, so a wrong address fails the start.
    await active.ready();
  } catch (error) {
    await active.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }
  state.handler = active;
  let closing: Promise<void> | undefined;
  return {
    url: baseUrl,
    mcpUrl: `${baseUrl}${MCP_PATH}`,
    cardUrl: `${baseUrl}${AGENT_CARD_PATH}`,
    port,
    get sessionCount() {
      return active.sessionCount;
    },
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        await active.close();
        server.closeAllConnections();
        await stopped;
      })()),
  };
}

/** How often Node looks for requests over their time limits: a tenth of the header limit, 50 ms to 1 s. */
function checkingInterval(headersTimeoutMs: number): number {
  return Math.min(1000, Math.max(50, Math.floor(headersTimeoutMs / 10)));
}

/** The card's URL when it is an HTTP(S) one (https is refused later, with advice); else the default. */
function pickCardUrl(url: string | undefined): string {
  return url && /^https?:\/\//i.test(url) ? url : AGENT_SERVER_DEFAULTS.url;
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
