import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ToolRuntimeError } from '../errors/tool-runtime-error';

/** A one-shot OAuth redirect listener on 127.0.0.1 (see {@link startLoopbackRedirectListener}). */
export interface LoopbackRedirectListener {
  /** The redirect URI to register and send, `http://127.0.0.1:<port>/callback`. */
  readonly redirectUrl: string;
  /**
   * Resolves with the `code` of the first redirect whose `state` equals `expectedState`; redirects with
   * another state are answered 400 and ignored.
   *
   * @throws ToolRuntimeError when the authorization server redirects with an `error`, or nothing arrives in time.
   */
  waitForCode(expectedState: string | null, timeoutMs: number): Promise<string>;
  /** Stops listening (idempotent). */
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 on a random port for the browser's redirect back from the authorization server
 * (RFC 8252 loopback redirect). One code is accepted; the listener is closed right after.
 */
export async function startLoopbackRedirectListener(): Promise<LoopbackRedirectListener> {
  let expected: string | null | undefined;
  let settle: { resolve: (code: string) => void; reject: (error: Error) => void } | undefined;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const reply = (status: number, text: string) => {
      response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
      response.end(text);
    };
    if (url.pathname !== '/callback' || !settle) return reply(404, 'Not found.');
    if (expected !== null && url.searchParams.get('state') !== expected) {
      return reply(400, 'This sign-in link does not belong to the sign-in in progress (state mismatch).');
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    const waiting = settle;
    settle = undefined;
    if (error !== null || !code) {
      reply(400, 'Sign-in failed; see the terminal.');
      const description = url.searchParams.get('error_description');
      waiting.reject(
        new ToolRuntimeError(
          `The authorization server refused the sign-in: ${error ?? 'no code in the redirect'}${description ? ` (${description})` : ''}.`,
        ),
      );
      return;
    }
    reply(200, 'Signed in. You can close this tab and return to the terminal.');
    waiting.resolve(code);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    waitForCode(expectedState, timeoutMs) {
      expected = expectedState;
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          settle = undefined;
          void close();
          reject(
            new ToolRuntimeError(
              `No sign-in arrived at ${`http://127.0.0.1:${port}/callback`} within ${Math.round(timeoutMs / 1000)} s; run the login again and open the URL it prints.`,
            ),
          );
        }, timeoutMs);
        settle = {
          resolve: (code) => {
            clearTimeout(timer);
            void close().then(() => resolve(code));
          },
          reject: (error) => {
            clearTimeout(timer);
            void close().then(() => reject(error));
          },
        };
      });
    },
    close,
  };
}
