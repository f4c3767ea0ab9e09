import type * as net from 'node:net';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { connectDirectly } from './connect-directly';
import type { NetworkSeams } from './network-seams';
import type { RequestDeadline } from './request-deadline';
import { resolvePublicAddresses } from './resolve-public-addresses';

/** Longest single connection attempt while other validated addresses are still left to try. */
const MAX_ATTEMPT_MS = 2_000;

/** Options of {@link openPinnedSocket}. */
export interface OpenPinnedSocketOptions {
  /** The test seams (resolver, connector); production leaves both unset. */
  seams: NetworkSeams;
  /** The request's deadline (its signal stops resolving and connecting). */
  deadline: RequestDeadline;
  /** The tool named in error messages. */
  toolName?: string;
  /** The provider named in runtime errors. */
  provider?: string;
}

/**
 * Resolves and validates the URL's host, then connects to the validated addresses in order (each attempt
 * bounded by `min(2 s, remaining / addresses left)` while others remain) and returns the first connected
 * socket. The socket can only ever reach an address that passed validation in this same call.
 *
 * @throws UnsafeUrlError when the host resolves to any non-public address.
 * @throws ToolRuntimeError when the host cannot be resolved or no address accepts the connection.
 */
export async function openPinnedSocket(url: URL, options: OpenPinnedSocketOptions): Promise<net.Socket> {
  const { deadline } = options;
  const addresses = await resolvePublicAddresses(url.hostname, {
    url: url.href,
    resolver: options.seams.resolver,
    signal: deadline.signal,
    toolName: options.toolName,
    provider: options.provider,
  });
  const tls = url.protocol === 'https:';
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const connector = options.seams.connector ?? connectDirectly;
  let lastError: unknown;
  for (let index = 0; index < addresses.length; index += 1) {
    if (deadline.signal.aborted) throw deadline.signal.reason;
    const left = addresses.length - index;
    const attemptMs = left > 1 ? Math.min(MAX_ATTEMPT_MS, deadline.remainingMs() / left) : undefined;
    let socket: net.Socket | undefined;
    try {
      socket = connector({ address: addresses[index], port: tls ? 443 : 80, hostname, tls });
      await waitForConnection(socket, deadline.signal, attemptMs);
      // A late socket error between this hand-over and the HTTP client's own listener must never crash.
      socket.on('error', ignoreError);
      return socket;
    } catch (error) {
      socket?.destroy();
      if (deadline.signal.aborted) throw deadline.signal.reason;
      lastError = error;
    }
  }
  const code = (lastError as { code?: unknown } | undefined)?.code;
  throw new ToolRuntimeError(
    `${options.toolName === undefined ? '' : `${options.toolName}: `}could not connect to '${hostname}' ` +
      `(${addresses.length} validated address${addresses.length === 1 ? '' : 'es'} tried${typeof code === 'string' ? `, ${code}` : ''}).`,
    { toolName: options.toolName, provider: options.provider, cause: lastError, retryable: true },
  );
}

function waitForConnection(
  socket: net.Socket,
  signal: AbortSignal,
  attemptMs: number | undefined,
): Promise<void> {
  if (socket === null || typeof socket !== 'object' || typeof socket.once !== 'function') {
    return Promise.reject(new TypeError('the connector did not return a socket'));
  }
  if (!socket.connecting) {
    // A fresh unconnected socket also reports readyState 'open'; only a connected one has a remote address.
    return socket.remoteAddress !== undefined && !socket.destroyed
      ? Promise.resolve()
      : Promise.reject(
          new TypeError('the connector returned a socket that is neither connected nor connecting'),
        );
  }
  return new Promise<void>((resolve, reject) => {
    const timer = attemptMs === undefined ? undefined : setTimeout(() => finish(timeoutError()), attemptMs);
    const onConnect = (): void => finish();
    const onError = (error: Error): void => finish(error);
    const onClose = (): void => finish(new Error('the connection closed before it was established'));
    const onAbort = (): void => finish(signal.reason);
    function finish(error?: unknown): void {
      clearTimeout(timer);
      socket.off('connect', onConnect).off('error', onError).off('close', onClose);
      signal.removeEventListener('abort', onAbort);
      if (error === undefined) resolve();
      else reject(error);
    }
    socket.once('connect', onConnect).once('error', onError).once('close', onClose);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function timeoutError(): Error {
  return Object.assign(new Error('the connection attempt timed out'), { code: 'ETIMEDOUT' });
}

function ignoreError(): void {}
