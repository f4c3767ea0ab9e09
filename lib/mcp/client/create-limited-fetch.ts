import { ToolRuntimeError } from '../../errors/tool-runtime-error';

/** A `fetch` as the MCP SDK's HTTP transports call it. */
export type McpFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * Wraps `fetch` so no single message from the server can exceed `maxBytes` (the SDK's HTTP transports have
 * no cap): a JSON body is bounded as a whole, an event stream per event. A message that grows past the
 * bound errors the stream with a {@link ToolRuntimeError}, and `onOverflow` is told (to fail waiting calls).
 */
export function createLimitedFetch(
  maxBytes: number,
  onOverflow: (error: ToolRuntimeError) => void,
  baseFetch: McpFetch = fetch,
): McpFetch {
  return async (url, init) => {
    const response = await baseFetch(url, init);
    if (!response.body) return response;
    const perEvent = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    let size = 0;
    let afterNewline = false;
    const limiter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (perEvent) {
          for (const byte of chunk) {
            if (byte === 10) {
              if (afterNewline) size = 0;
              afterNewline = true;
            } else if (byte !== 13) {
              afterNewline = false;
              size += 1;
              if (size > maxBytes) break;
            }
          }
        } else {
          size += chunk.byteLength;
        }
        if (size > maxBytes) {
          const error = new ToolRuntimeError(
            `The MCP server sent a message larger than ${maxBytes} bytes; it was refused.`,
          );
          onOverflow(error);
          controller.error(error);
          return;
        }
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(limiter), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
