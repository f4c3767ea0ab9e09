import type { IncomingMessage, ServerResponse } from 'node:http';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { isPlainJsonRpcRequest } from './is-plain-json-rpc-request';
import { parsedRequestBody } from './parsed-request-body';
import { readRequestBody } from './read-request-body';
import { sendJsonRpcError } from './send-json-rpc-error';

/** What {@link readJsonRpcBody} resolves when it answered the request itself. */
export const NOT_PARSED = Symbol('not parsed');

/**
 * Reads a POST body for the MCP endpoint (or takes the one a framework parsed, within the limit) and checks it
 * is JSON-RPC: over `maxBodyBytes` gets 413, malformed JSON a parse error, anything else an invalid-request
 * error, each answered here (resolving {@link NOT_PARSED}) before any MCP server sees it.
 */
export async function readJsonRpcBody(
  request: IncomingMessage,
  response: ServerResponse,
  maxBodyBytes: number,
): Promise<unknown> {
  // A framework's body parser (Express's express.json()) may have read the stream already.
  const given = parsedRequestBody(request, maxBodyBytes);
  if (given?.kind === 'consumed') {
    sendJsonRpcError(
      response,
      400,
      -32600,
      'Bad Request: the request body was read by another middleware and is not available; ' +
        'mount the MCP handler before body parsers other than express.json().',
    );
    return NOT_PARSED;
  }
  const body = given ?? (await readRequestBody(request, maxBodyBytes));
  if (('tooLarge' in body && body.tooLarge) || ('kind' in body && body.kind === 'tooLarge')) {
    request.resume();
    sendJsonRpcError(
      response,
      413,
      -32600,
      `Payload Too Large: the request body exceeds ${maxBodyBytes} bytes.`,
      {
        connection: 'close',
      },
    );
    return NOT_PARSED;
  }
  let parsed: unknown;
  if ('value' in body) {
    parsed = body.value;
  } else {
    try {
      parsed = JSON.parse('text' in body ? body.text : '');
    } catch {
      sendJsonRpcError(response, 400, -32700, 'Parse error: the request body is not valid JSON.');
      return NOT_PARSED;
    }
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  if (
    messages.length === 0 ||
    !messages.every(
      (message) => isPlainJsonRpcRequest(message) || JSONRPCMessageSchema.safeParse(message).success,
    )
  ) {
    sendJsonRpcError(
      response,
      400,
      -32600,
      'Invalid Request: the body is not a JSON-RPC 2.0 message (or batch of messages).',
    );
    return NOT_PARSED;
  }
  return parsed;
}
