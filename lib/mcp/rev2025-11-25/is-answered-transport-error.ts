/**
 * Whether the SDK transport's error is one of the requests it refused and answered itself (406, 415, a bad
 * session, malformed JSON-RPC): those are the client's, not the server's, and are not reported.
 */
export function isAnsweredTransportError(error: Error): boolean {
  return /^(Not Acceptable|Unsupported Media Type|Bad Request|Method not allowed|Conflict|Invalid Request|Parse error)/.test(
    error.message,
  );
}
