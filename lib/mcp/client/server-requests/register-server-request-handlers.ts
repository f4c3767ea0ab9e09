import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type {
  ClientCapabilities,
  CreateMessageResult,
  ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { ProtolinkError } from '../../../errors/protolink-error';
import type { SamplingRequest } from '../../../runtime/tool-call-channel';
import { prepareElicitation, readElicitationAnswer } from '../../../tools/elicitation/prepare-elicitation';
import type { PreparedElicitation } from '../../../tools/elicitation/prepare-elicitation';
import type { MCPElicitationHandler, MCPSamplingHandler } from './mcp-server-request-handlers';

/** Who answers the requests a server sends to the adapter's client. */
export interface McpServerRequestSetup {
  /** The server's label, for messages. */
  readonly serverName: string;
  readonly elicitationHandler?: MCPElicitationHandler;
  readonly samplingHandler?: MCPSamplingHandler;
}

/**
 * The client capabilities declared at `initialize`: `elicitation` (form mode, defaults applied) only with an
 * elicitation handler, `sampling` only with a sampling handler, so a server never asks a client that cannot
 * answer.
 */
export function toClientCapabilities(setup: McpServerRequestSetup): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  if (setup.elicitationHandler) capabilities.elicitation = { form: { applyDefaults: true } };
  if (setup.samplingHandler) capabilities.sampling = {};
  return capabilities;
}

/**
 * Installs the handlers of server-initiated requests on an SDK client (declared with
 * {@link toClientCapabilities}). Elicitation answers are validated against the requested schema with its
 * defaults applied; a request nobody can answer is refused with an error that names the missing option.
 */
export function registerServerRequestHandlers(client: Client, setup: McpServerRequestSetup): void {
  const { elicitationHandler, samplingHandler, serverName } = setup;
  if (elicitationHandler) {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra): Promise<ElicitResult> => {
      const params = request.params as { message: string; requestedSchema?: Record<string, unknown> };
      const prepared = prepareRequested(params.requestedSchema, serverName);
      const answer = await elicitationHandler(
        { message: params.message, requestedSchema: prepared.requestedSchema },
        { serverName, signal: extra.signal },
      );
      try {
        const result = readElicitationAnswer(answer, prepared);
        if (result.action !== 'accept') return { action: result.action };
        return { action: 'accept', content: result.content as ElicitResult['content'] };
      } catch (error) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `The elicitationHandler of MCP server '${serverName}' gave an answer that does not fit the requested form: ${messageOf(error)}`,
        );
      }
    });
  }
  if (samplingHandler) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      const result = await samplingHandler(request.params as unknown as SamplingRequest, {
        serverName,
        signal: extra.signal,
      });
      return result as unknown as CreateMessageResult;
    });
  }
  client.fallbackRequestHandler = async (request) => {
    const option =
      request.method === 'elicitation/create'
        ? 'elicitationHandler'
        : request.method === 'sampling/createMessage'
          ? 'samplingHandler'
          : undefined;
    if (option === undefined) throw new McpError(ErrorCode.MethodNotFound, 'Method not found');
    throw new McpError(
      ErrorCode.MethodNotFound,
      `This client cannot answer ${request.method} from MCP server '${serverName}': give the MCPToolAdapter an ${option} option.`,
    );
  };
}

function prepareRequested(
  requestedSchema: Record<string, unknown> | undefined,
  serverName: string,
): PreparedElicitation {
  try {
    return prepareElicitation(requestedSchema ?? { type: 'object', properties: {} });
  } catch (error) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `MCP server '${serverName}' asked for a form this client cannot show: ${messageOf(error)}`,
    );
  }
}

function messageOf(error: unknown): string {
  return error instanceof ProtolinkError || error instanceof Error ? error.message : String(error);
}
