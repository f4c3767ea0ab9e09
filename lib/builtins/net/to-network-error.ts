import { ToolRuntimeError } from '../../errors/tool-runtime-error';

const CLOSED_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ECONNABORTED',
  'ERR_CANCELED',
]);
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EADDRNOTAVAIL',
]);

/**
 * Turns a transport failure (a Node socket or parser error, an axios error, anything thrown while reading)
 * into a {@link ToolRuntimeError} with a plain explanation: a malformed response (llhttp `HPE_*`: conflicting
 * `Content-Length`, bad chunking, oversized headers), a connection closed early, an unreachable server, a TLS
 * failure, or the response-size limit. A ToolRuntimeError is returned unchanged.
 */
export function toNetworkError(
  error: unknown,
  url: string,
  options: { toolName?: string; provider?: string; maxBytes?: number },
): ToolRuntimeError {
  if (error instanceof ToolRuntimeError) return error;
  const code = findCode(error);
  const message = error instanceof Error ? error.message : String(error);
  const prefix = options.toolName === undefined ? '' : `${options.toolName}: `;
  const make = (detail: string, retryable: boolean): ToolRuntimeError =>
    new ToolRuntimeError(`${prefix}${detail}`, {
      toolName: options.toolName,
      provider: options.provider,
      cause: error,
      retryable,
    });
  if (/maxContentLength/u.test(message)) {
    return make(
      `the response is larger than the limit of ${options.maxBytes ?? 'the allowed'} bytes. Fetch a smaller page or a more specific URL.`,
      false,
    );
  }
  if (code?.startsWith('HPE_')) {
    return make(`the server at ${url} sent a malformed HTTP response (${code}); it was refused.`, false);
  }
  if (code !== undefined && CLOSED_CODES.has(code)) {
    return make(`the connection to ${url} closed before the response was complete (${code}).`, true);
  }
  if (code !== undefined && UNREACHABLE_CODES.has(code)) {
    return make(`could not connect to ${url} (${code}).`, true);
  }
  if (
    code !== undefined &&
    (/^ERR_TLS|^ERR_SSL|CERT|^DEPTH_ZERO|^SELF_SIGNED/u.test(code) || /certificate/iu.test(message))
  ) {
    return make(
      `the TLS connection to ${url} failed (${code}); the certificate or handshake was not accepted.`,
      false,
    );
  }
  const detail = message.replace(/[^\x20-\x7e]/gu, '?').slice(0, 200);
  return make(`the request to ${url} failed: ${detail}${code === undefined ? '' : ` (${code})`}.`, true);
}

function findCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'ERR_BAD_RESPONSE' && code !== 'ERR_NETWORK') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
