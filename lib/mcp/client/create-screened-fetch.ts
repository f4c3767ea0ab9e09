import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpFetch } from './create-limited-fetch';
import type { McpMessageScreen } from './mcp-message-screen';
import { screenEventStream } from './screen-event-stream';

/**
 * Wraps `fetch` for the SDK's HTTP transports so every message of a successful response from the MCP
 * `endpoint` passes an {@link McpMessageScreen} before the SDK parses it: a JSON body (one message or a batch)
 * as a whole, an event stream per `message` event. What the screen delivers unchanged keeps its bytes; a
 * refused answer is replaced by the screen's error answer; a refused request of the server is answered
 * through `reply` and, like any other message the screen drops, removed. Other URLs (the sign-in's metadata,
 * registration and token endpoints, whose JSON is no JSON-RPC) pass untouched.
 */
export function createScreenedFetch(
  screen: McpMessageScreen,
  reply: (message: JSONRPCMessage) => void,
  endpoint: URL,
  baseFetch: McpFetch,
): McpFetch {
  const decide = (data: string): string | undefined => {
    const screening = screen.screenText(data);
    if (screening.verdict === 'deliver') return screening.replaced ? JSON.stringify(screening.message) : data;
    if (screening.reply) reply(screening.reply);
    return undefined;
  };
  return async (url, init) => {
    const response = await baseFetch(url, init);
    if (!response.ok || !response.body || !isEndpoint(url, endpoint)) return response;
    const type = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    const screener =
      type === 'application/json'
        ? screenJsonBody(screen, reply)
        : type === 'text/event-stream'
          ? screenEventStream(decide)
          : undefined;
    if (!screener) return response;
    return new Response(response.body.pipeThrough(screener), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function isEndpoint(url: string | URL, endpoint: URL): boolean {
  const target = url instanceof URL ? url : URL.canParse(url) ? new URL(url) : undefined;
  return target !== undefined && target.origin === endpoint.origin && target.pathname === endpoint.pathname;
}

/** Screens a JSON body once all of it has arrived (the SDK reads it whole too). */
function screenJsonBody(
  screen: McpMessageScreen,
  reply: (message: JSONRPCMessage) => void,
): TransformStream<Uint8Array, Uint8Array> {
  const chunks: Uint8Array[] = [];
  return new TransformStream({
    transform(chunk) {
      chunks.push(chunk);
    },
    flush(controller) {
      const bytes = Buffer.concat(chunks);
      let value: unknown;
      try {
        value = JSON.parse(bytes.toString('utf8'));
      } catch {
        // Not JSON: the SDK fails the request that posted it, as it did without the screen.
        controller.enqueue(bytes);
        return;
      }
      const batch = Array.isArray(value);
      let changed = false;
      const kept: unknown[] = [];
      for (const message of batch ? (value as unknown[]) : [value]) {
        const screening = screen.screen(message);
        if (screening.verdict === 'drop') {
          if (screening.reply) reply(screening.reply);
          changed = true;
        } else if (screening.replaced) {
          kept.push(screening.message);
          changed = true;
        } else kept.push(message);
      }
      // A lone message dropped leaves an empty batch, which the SDK reads as no messages.
      const text = changed ? JSON.stringify(batch || kept.length !== 1 ? kept : kept[0]) : undefined;
      controller.enqueue(text === undefined ? bytes : new TextEncoder().encode(text));
    },
  });
}
