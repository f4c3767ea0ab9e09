import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { McpFetch } from './create-limited-fetch';

/** A fetch whose long-lived GET event streams can stop holding the event loop. */
export interface EventStreamFetch {
  readonly fetch: McpFetch;
  /**
   * `true` while a call or a listing is in flight: open event streams keep the process alive; `false`
   * when idle: they do not, so a script that forgot `close()` still exits.
   */
  setActive(active: boolean): void;
  /**
   * Settles when the first GET event stream got its response (or failed): a server sends requests that
   * belong to no call (e.g. `elicitation/create` outside a request) only on that stream, and drops them
   * while it is not open.
   */
  firstStream(): Promise<void>;
}

const NO_BODY_STATUS = new Set([101, 204, 205, 304]);

/**
 * Wraps `fetch` for the SDK's HTTP transports: requests other than GET go to `baseFetch` unchanged (idle
 * keep-alive sockets of `fetch` do not hold the loop); GET requests (the standalone or SSE event stream,
 * which stays open for the whole session) go through `node:http`, whose socket can be unref'd while the
 * session is idle and ref'd again while anything is in flight.
 */
export function createEventStreamFetch(baseFetch: McpFetch): EventStreamFetch {
  const sockets = new Set<Socket>();
  // Active until the session is open: opening (and, over SSE, its answers on the stream) must hold the loop.
  let active = true;
  const apply = (socket: Socket): void => {
    if (active) socket.ref();
    else socket.unref();
  };
  let markStreamed: () => void = () => undefined;
  const streamed = new Promise<void>((resolve) => (markStreamed = resolve));
  const fetchStream = (url: string | URL, init: RequestInit): Promise<Response> => {
    const target = new URL(String(url));
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => {
      headers[key] = value;
    });
    return new Promise<Response>((resolve, reject) => {
      const outgoing = send(target, { method: 'GET', headers, signal: init.signal ?? undefined });
      outgoing.once('socket', (socket: Socket) => {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
        apply(socket);
      });
      outgoing.once('error', (error) => {
        markStreamed();
        reject(error);
      });
      outgoing.once('response', (incoming) => {
        const responseHeaders = new Headers();
        for (let index = 0; index + 1 < incoming.rawHeaders.length; index += 2)
          responseHeaders.append(incoming.rawHeaders[index], incoming.rawHeaders[index + 1]);
        const status = incoming.statusCode ?? 502;
        const body = NO_BODY_STATUS.has(status)
          ? null
          : (Readable.toWeb(incoming) as unknown as ReadableStream<Uint8Array>);
        if (body === null) incoming.resume();
        markStreamed();
        resolve(new Response(body, { status, statusText: incoming.statusMessage, headers: responseHeaders }));
      });
      outgoing.end();
    });
  };
  return {
    fetch: (url, init) =>
      (init?.method ?? 'GET').toUpperCase() === 'GET' ? fetchStream(url, init ?? {}) : baseFetch(url, init),
    firstStream: () => streamed,
    setActive(next) {
      active = next;
      for (const socket of sockets) apply(socket);
    },
  };
}
