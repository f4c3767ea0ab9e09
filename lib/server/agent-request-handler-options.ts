import { defineKnownOptions } from '../runtime/assert-known-options';
import { SERVER_OPTION_ADVICE } from '../agents/agent-server-options';
import type { AgentServerOptions } from '../agents/agent-server-options';
import { SHARED_SERVE_OPTION_FLAGS } from '../agents/serve-option-names';
import type { ListeningServerOption } from '../agents/serve-option-names';

export type { ListeningServerOption } from '../agents/serve-option-names';

/**
 * Options of `createAgentRequestHandler()`: those of `startAgentServer` minus the listening server's own
 * (where to listen and the connection limits), plus paths.
 */
export interface AgentRequestHandlerOptions extends Omit<AgentServerOptions, ListeningServerOption> {
  /** The path of the MCP endpoint (default `/mcp`). */
  path?: string;
  /** The path of the A2A card (default `/.well-known/agent.json`); `null` serves no card. */
  cardPath?: string | null;
  /** The port the server listens on (its own origins are allowed); default: each request's local port. */
  port?: number;
  /** The host name the server listens on, always accepted in `Host` (loopback names always are). */
  listenHostname?: string;
  /** `pass` (default): other paths are not handled (`handle` resolves false); `reject`: they get 404. */
  unknownPaths?: 'pass' | 'reject';
}

/** The options of `createAgentRequestHandler()`, and advice for the names people pass instead. */
export const AGENT_REQUEST_HANDLER_OPTIONS = defineKnownOptions<AgentRequestHandlerOptions>(
  'createAgentRequestHandler()',
  {
    ...SHARED_SERVE_OPTION_FLAGS,
    path: true,
    cardPath: true,
    port: true,
    listenHostname: true,
    unknownPaths: true,
  },
  {
    ...SERVER_OPTION_ADVICE,
    url: 'the handler is mounted in your own HTTP server, which decides where to listen; for the URL the card advertises use publicUrl',
    allowNonLoopback:
      'the handler is mounted in your own HTTP server, which decides its interface; remove it (allowedHosts lists the Host values to accept)',
    host: 'use listenHostname (the host name your server listens on, always accepted in Host)',
    headersTimeoutMs: 'it bounds connections, which the server you run owns: set its headersTimeout',
    requestTimeoutMs: 'it bounds connections, which the server you run owns: set its requestTimeout',
    keepAliveTimeoutMs: 'it bounds connections, which the server you run owns: set its keepAliveTimeout',
    maxConnections: 'it bounds connections, which the server you run owns: set its maxConnections',
  },
);
