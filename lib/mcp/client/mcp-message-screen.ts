import { randomUUID } from 'node:crypto';
import {
  ErrorCode,
  JSONRPCErrorResponseSchema,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { isPlainRecord } from '../../tools/validation/copy-json-value';
import { isNestedDeeper } from './is-nested-deeper';

/**
 * Listings are not bounded as a whole: each entry is checked against `maxSchemaDepth` on its own (an
 * iterative walk), so one entry nested thousands of levels is set aside and the others stay usable.
 */
const LISTINGS = new Set(['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']);

/** What becomes of one message from the server. */
export type McpScreening =
  /** Handed to the SDK: the message as parsed, or (`replaced`) an error answer standing in for a refused answer. */
  | { readonly verdict: 'deliver'; readonly message: JSONRPCMessage; readonly replaced: boolean }
  /** Not handed to the SDK; `reply` (to a refused request of the server) is sent back to it. */
  | { readonly verdict: 'drop'; readonly error: ToolRuntimeError; readonly reply?: JSONRPCMessage };

/** Options of {@link McpMessageScreen}. */
export interface McpMessageScreenOptions {
  /** The server, for messages. */
  readonly serverName: string;
  /** Deepest nesting accepted in a message that is not a listing (`maxMessageDepth`). */
  readonly maxDepth: number;
}

type RequestId = string | number;

/**
 * Checks every message from a server before the MCP SDK sees it, on every transport. The SDK's transports
 * drop a message that fails their JSON-RPC schema (they only report it to `onerror`), so a malformed answer
 * left its request waiting for `timeoutMs`; and a valid answer nested thousands of levels deep reached code
 * that serializes it recursively. Here an answer nested deeper than `maxDepth` levels (listings aside) or not a
 * valid JSON-RPC message is replaced by an error answer to its request, which then rejects at once with a
 * {@link ToolRuntimeError} naming the server and the method (see {@link refusalOf}); a request of the server's
 * so refused is answered with an error, and any other refused message is dropped.
 */
export class McpMessageScreen {
  /** Marks the error answers made here, so a server cannot pass its own errors off as this client's. */
  private readonly token = randomUUID();
  /** The method of each request sent and not yet answered (or cancelled), by id. */
  private readonly pending = new Map<RequestId, string>();

  constructor(private readonly options: McpMessageScreenOptions) {}

  /** Notes a message sent to the server: requests wait for their answer, a cancellation ends the wait. */
  noteSent(message: JSONRPCMessage): void {
    if (!('method' in message)) return;
    if ('id' in message) this.pending.set(message.id, message.method);
    else if (message.method === 'notifications/cancelled') {
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') this.pending.delete(requestId);
    }
  }

  /** Screens one message as sent (a stdio line, an HTTP body, an event's data). */
  screenText(text: string): McpScreening {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return this.drop(`sent a message that is not JSON (${(error as Error).message})`);
    }
    // Each level of nesting takes two characters: most messages are too short to be too deep, unwalked.
    return this.screen(value, text.length >= 2 * (this.options.maxDepth + 2));
  }

  /** Screens one parsed message (`mayBeDeep` false: known to be too short to be nested too deep). */
  screen(value: unknown, mayBeDeep = true): McpScreening {
    const record = isPlainRecord(value) ? value : undefined;
    const id = record?.id;
    const hasId = typeof id === 'string' || typeof id === 'number';
    const isRequest = hasId && typeof record?.method === 'string';
    const isAnswer = hasId && !isRequest && record !== undefined && ('result' in record || 'error' in record);
    const method = isAnswer ? this.pending.get(id) : undefined;
    if (isAnswer) this.pending.delete(id);
    let problem: string | undefined;
    const bounded = mayBeDeep && !(method !== undefined && LISTINGS.has(method));
    if (bounded && isNestedDeeper(value, this.options.maxDepth)) {
      problem = `nested deeper than ${this.options.maxDepth} levels (maxMessageDepth)`;
    }
    let message: JSONRPCMessage | undefined;
    if (problem === undefined) {
      const parsed = JSONRPCMessageSchema.safeParse(value);
      if (parsed.success) message = parsed.data;
      else problem = `that is not a valid JSON-RPC message (${describeProblem(record, isAnswer, isRequest)})`;
    }
    if (message !== undefined) return { verdict: 'deliver', message, replaced: false };
    const kind = isAnswer ? 'an answer' : isRequest ? 'a request' : 'a message';
    const what = `${kind} ${problem as string}`;
    if (isAnswer)
      return { verdict: 'deliver', message: this.refusedAnswer(id, method, what), replaced: true };
    if (isRequest) {
      return {
        ...this.drop(`sent ${what}`),
        reply: {
          jsonrpc: '2.0',
          id,
          error: { code: ErrorCode.InvalidRequest, message: `The client refused ${what}.` },
        },
      };
    }
    return this.drop(`sent ${what}`);
  }

  /**
   * The error to throw for an answer this screen refused (an `McpError` carrying its mark), or undefined for
   * any other error.
   */
  refusalOf(error: unknown): ToolRuntimeError | undefined {
    if (!(error instanceof McpError) || !isPlainRecord(error.data)) return undefined;
    if (error.data.refusedBy !== this.token || typeof error.data.reason !== 'string') return undefined;
    return new ToolRuntimeError(error.data.reason, { provider: this.options.serverName });
  }

  private refusedAnswer(id: RequestId, method: string | undefined, what: string): JSONRPCMessage {
    const to = method === undefined ? `request ${JSON.stringify(id)}` : method;
    const hint = what.includes('maxMessageDepth')
      ? ' Raise maxMessageDepth if answers of that server are that deep.'
      : '';
    const reason = `MCP server '${this.options.serverName}' answered ${to} with ${what}; the answer was refused.${hint}`;
    return {
      jsonrpc: '2.0',
      id,
      error: { code: ErrorCode.InternalError, message: reason, data: { refusedBy: this.token, reason } },
    };
  }

  private drop(what: string): Extract<McpScreening, { verdict: 'drop' }> {
    return {
      verdict: 'drop',
      error: new ToolRuntimeError(`MCP server '${this.options.serverName}' ${what}; it was dropped.`, {
        provider: this.options.serverName,
      }),
    };
  }
}

/** The first problem of a message against the schema of the kind it looks like (the union's says only "invalid"). */
function describeProblem(
  record: Record<string, unknown> | undefined,
  isAnswer: boolean,
  isRequest: boolean,
): string {
  if (record === undefined) return 'not a JSON object';
  const schema = isAnswer
    ? 'error' in record
      ? JSONRPCErrorResponseSchema
      : JSONRPCResultResponseSchema
    : isRequest
      ? JSONRPCRequestSchema
      : JSONRPCNotificationSchema;
  const issue = schema.safeParse(record).error?.issues[0];
  if (!issue) return 'invalid';
  const message = issue.message.length > 200 ? `${issue.message.slice(0, 200)}…` : issue.message;
  return issue.path.length ? `${issue.path.map(String).join('.')}: ${message}` : message;
}
