import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpRevisionEndpoint } from '../../mcp/serve/mcp-revision-endpoint';
import type { ServableAgent } from '../../agents/servable-agent';
import { SessionEndpoint } from '../../mcp/rev2025-11-25/session-endpoint';
import type { SessionEndpointOptions } from '../../mcp/rev2025-11-25/session-endpoint';
import { StatelessEndpoint } from '../../mcp/rev2025-11-25/stateless-endpoint';
import type { StatelessEndpointOptions } from '../../mcp/rev2025-11-25/stateless-endpoint';
import type { ProtocolEra } from '../../mcp/wire/protocol-eras';
import { NOT_PARSED, readJsonRpcBody } from '../../mcp/wire/read-json-rpc-body';
import { sendJsonRpcError } from '../../mcp/wire/send-json-rpc-error';
import { toRequestEra } from '../../mcp/wire/to-request-era';

/** Options of {@link McpEndpoint}: the door's own, and those of the revision endpoint it hands requests to. */
export interface McpEndpointOptions extends SessionEndpointOptions, StatelessEndpointOptions {
  readonly sessionMode: 'stateful' | 'stateless';
  readonly maxBodyBytes: number;
}

/**
 * The front door of the `/mcp` streamable-HTTP endpoint: answers a method the request's endpoint does not
 * serve with 405, reads and counts the body once (413 over the limit), answers malformed JSON with a
 * JSON-RPC parse error and non-JSON-RPC with an invalid-request error before any MCP server sees it, tells
 * the request's protocol era once (from its `MCP-Protocol-Version` header), and hands the parsed body to that
 * era's endpoint. Every request is of the session era today: its 2025-11-25 endpoint is stateful (sessions;
 * unknown or expired ids get 404) or stateless (a server per request), as `sessionMode` says.
 */
export class McpEndpoint {
  private readonly sessionEra: McpRevisionEndpoint;
  private readonly maxBodyBytes: number;

  constructor(agent: ServableAgent, options: McpEndpointOptions) {
    this.sessionEra =
      options.sessionMode === 'stateful'
        ? new SessionEndpoint(agent, options)
        : new StatelessEndpoint(agent, options);
    this.maxBodyBytes = options.maxBodyBytes;
  }

  /** How many stateful sessions are open. */
  get sessionCount(): number {
    return this.sessionEra.sessionCount;
  }

  /**
   * The stateful endpoint's open sessions (undefined when stateless). The door never reads them: the specs of
   * shared sessions look inside a session through this, as they did before the endpoints moved out.
   */
  private get sessions(): unknown {
    return this.sessionEra instanceof SessionEndpoint ? this.sessionEra.sessions : undefined;
  }

  /** Handles one request to `/mcp`. */
  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const endpoint = this.endpointOf(toRequestEra(request));
    const method = request.method ?? 'GET';
    if (!endpoint.methods.includes(method)) {
      request.resume();
      const allow = endpoint.methods.join(', ');
      sendJsonRpcError(response, 405, -32000, `Method not allowed: ${method}; use ${allow}.`, { allow });
      return;
    }
    let body: unknown;
    if (method === 'POST') {
      const parsed = await readJsonRpcBody(request, response, this.maxBodyBytes);
      if (parsed === NOT_PARSED) return;
      body = parsed;
    }
    await endpoint.handle(request, response, body);
  }

  /**
   * Stops the tasks this endpoint runs (recorded `failed` while the task store is still reachable), then
   * closes every session.
   */
  async close(): Promise<void> {
    await this.sessionEra.close();
  }

  /** The endpoint serving an era: a revision of another era is one more case here. */
  private endpointOf(era: ProtocolEra): McpRevisionEndpoint {
    switch (era) {
      case 'session':
        return this.sessionEra;
    }
  }
}
