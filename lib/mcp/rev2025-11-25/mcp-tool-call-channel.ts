import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CreateMessageResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { ToolCancelledError } from '../../errors/tool-cancelled-error';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { TOOL_LOG_LEVELS } from '../../runtime/tool-call-channel';
import type {
  ElicitationResult,
  ElicitationSchemaInput,
  SamplingRequest,
  SamplingResult,
  ToolCallChannel,
  ToolLogLevel,
} from '../../runtime/tool-call-channel';
import { prepareElicitation, readElicitationAnswer } from '../../tools/elicitation/prepare-elicitation';

/** The log level a client chose with `logging/setLevel` (undefined: every message is sent). */
export interface LogLevelHolder {
  level: ToolLogLevel | undefined;
}

/** The part of the SDK's request-handler `extra` a call's channel uses. */
export type McpCallExtra = Pick<
  RequestHandlerExtra<ServerRequest, ServerNotification>,
  'signal' | '_meta' | 'sendNotification' | 'sendRequest' | 'closeSSEStream'
>;

/** Options of {@link McpToolCallChannel}. */
export interface McpToolCallChannelOptions {
  /** The tool being called. */
  readonly toolName: string;
  /** The server the call arrived on (for the client's declared capabilities). */
  readonly server: Pick<Server, 'getClientCapabilities'>;
  /** What the SDK gives the request handler (related notifications and requests, progress token, stream). */
  readonly extra: McpCallExtra;
  /** The session's log level. */
  readonly logLevel: LogLevelHolder;
  /** Longest wait for the user's answer to a question or a model's completion, in ms. */
  readonly requestTimeoutMs: number;
  /** Whether requests to the client can travel during the call (false with JSON responses). */
  readonly serverRequests?: boolean;
}

/**
 * The channel of one served `tools/call`: progress becomes `notifications/progress` (only when the request
 * carried a progress token), log messages `notifications/message` (filtered by the client's level), and
 * questions and sampling requests `elicitation/create` and `sampling/createMessage` sent on the call's own
 * stream, so they reach the client even when it opened no standalone stream.
 */
export class McpToolCallChannel implements ToolCallChannel {
  constructor(private readonly options: McpToolCallChannelOptions) {}

  async progress(progress: number, total: number | undefined, message: string | undefined): Promise<void> {
    const token = this.options.extra._meta?.progressToken;
    if (token === undefined) return;
    await this.notify({
      method: 'notifications/progress',
      params: {
        progressToken: token,
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      },
    });
  }

  async log(level: ToolLogLevel, data: unknown, logger: string | undefined): Promise<void> {
    const threshold = this.options.logLevel.level;
    if (threshold && TOOL_LOG_LEVELS.indexOf(level) < TOOL_LOG_LEVELS.indexOf(threshold)) return;
    await this.notify({
      method: 'notifications/message',
      params: { level, data: toJsonData(data), ...(logger === undefined ? {} : { logger }) },
    });
  }

  async elicit(message: string, schema: ElicitationSchemaInput): Promise<ElicitationResult<unknown>> {
    const { toolName } = this.options;
    const prepared = prepareElicitation(schema, toolName);
    this.assertServerRequests('asked the user a question (context.elicit)');
    if (!this.canElicit()) {
      throw new ToolRuntimeError(
        `Tool '${toolName}' asked the user a question (context.elicit), but the connected MCP client did not declare the elicitation capability.`,
      );
    }
    const answer = await this.request(
      'elicitation/create',
      { message, requestedSchema: prepared.requestedSchema },
      ElicitResultSchema,
      'the answer to its question',
    );
    return readElicitationAnswer(answer, prepared, toolName);
  }

  async sample(request: SamplingRequest): Promise<SamplingResult> {
    const { toolName } = this.options;
    this.assertServerRequests('asked for a model completion (context.sample)');
    if (!this.options.server.getClientCapabilities()?.sampling) {
      throw new ToolRuntimeError(
        `Tool '${toolName}' asked for a model completion (context.sample), but the connected MCP client did not declare the sampling capability.`,
      );
    }
    const result = await this.request(
      'sampling/createMessage',
      request as unknown as Record<string, unknown>,
      CreateMessageResultSchema,
      'a model completion',
    );
    return result as unknown as SamplingResult;
  }

  canElicit(): boolean {
    return (
      this.options.serverRequests !== false &&
      this.options.server.getClientCapabilities()?.elicitation !== undefined
    );
  }

  private assertServerRequests(what: string): void {
    if (this.options.serverRequests !== false) return;
    throw new ToolRuntimeError(
      `Tool '${this.options.toolName}' ${what}, but this server answers calls with single JSON responses (enableJsonResponse), which cannot carry a request to the client; serve without enableJsonResponse to let tools ask.`,
    );
  }

  closeStream(): boolean {
    const close = this.options.extra.closeSSEStream;
    if (!close) return false;
    close();
    return true;
  }

  private async notify(notification: ServerNotification): Promise<void> {
    try {
      await this.options.extra.sendNotification(notification);
    } catch {
      // A client that went away misses a notification; the call itself goes on (its signal says when to stop).
    }
  }

  private async request<Schema extends typeof ElicitResultSchema | typeof CreateMessageResultSchema>(
    method: 'elicitation/create' | 'sampling/createMessage',
    params: Record<string, unknown>,
    schema: Schema,
    what: string,
  ): Promise<unknown> {
    const { extra, toolName, requestTimeoutMs } = this.options;
    try {
      return await extra.sendRequest({ method, params } as ServerRequest, schema, {
        signal: extra.signal,
        timeout: requestTimeoutMs,
      });
    } catch (error) {
      if (extra.signal.aborted) {
        throw new ToolCancelledError(
          `The call of tool '${toolName}' was canceled while waiting for ${what}.`,
          {
            toolName,
            cause: error,
          },
        );
      }
      throw new ToolRuntimeError(
        `Tool '${toolName}' did not get ${what} from the MCP client: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }
}

/** Log data must be JSON: anything else is sent as its text. */
function toJsonData(data: unknown): unknown {
  if (data === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(data)) as unknown;
  } catch {
    return String(data);
  }
}
