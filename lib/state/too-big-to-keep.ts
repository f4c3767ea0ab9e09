// What the event stores keep in place of a response too big for their byte bound: the same request answered
// with an error that says so, so a client resuming the stream learns the outcome instead of waiting for a
// response that was never kept (the response itself still goes out live to a client on the stream).

/** The message of the error kept in place of a response too big for the event store. */
export const TOO_BIG_TO_KEEP_MESSAGE =
  'The response to this request was too big for the event store (over its byte bound per session), so it was not kept for resumption; send the request again, or raise maxEventStoreBytesPerSession.';

/** A JSON-RPC error response for the same request, or undefined when `message` is not a response. */
export function tooBigToKeep(message: Record<string, unknown>): Record<string, unknown> | undefined {
  const { id } = message;
  const isResponse =
    message.method === undefined &&
    (typeof id === 'string' || typeof id === 'number') &&
    (message.result !== undefined || message.error !== undefined);
  if (!isResponse) return undefined;
  return { jsonrpc: '2.0', id, error: { code: -32603, message: TOO_BIG_TO_KEEP_MESSAGE } };
}
