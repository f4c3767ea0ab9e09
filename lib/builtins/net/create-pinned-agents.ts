import * as http from 'node:http';
import * as https from 'node:https';
import type * as net from 'node:net';
import type { Duplex } from 'node:stream';

/** Opens the socket of one request; the agents below never open one any other way. */
export type PinnedSocketFactory = () => Promise<net.Socket>;

/** An agent whose only way to get a socket is the pinned factory (no pool, no keep-alive, no lookup). */
class PinnedHttpAgent extends http.Agent {
  constructor(private readonly openSocket: PinnedSocketFactory) {
    super({ keepAlive: false, maxSockets: 1 });
  }

  override createConnection(
    _options: http.ClientRequestArgs,
    callback?: (error: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    deliver(this.openSocket, callback);
    return undefined;
  }
}

/** The HTTPS twin of {@link PinnedHttpAgent}; TLS is done by the socket factory (the connector). */
class PinnedHttpsAgent extends https.Agent {
  constructor(private readonly openSocket: PinnedSocketFactory) {
    super({ keepAlive: false, maxSockets: 1 });
  }

  override createConnection(
    _options: https.RequestOptions,
    callback?: (error: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    deliver(this.openSocket, callback);
    return undefined;
  }
}

/**
 * Creates the HTTP and HTTPS agents of one request hop. Both are always set, so a protocol switch can never
 * fall back to a default agent, and both get their socket only from `openSocket` (resolve, validate, connect
 * to the validated address).
 */
export function createPinnedAgents(openSocket: PinnedSocketFactory): {
  httpAgent: http.Agent;
  httpsAgent: https.Agent;
} {
  return { httpAgent: new PinnedHttpAgent(openSocket), httpsAgent: new PinnedHttpsAgent(openSocket) };
}

function deliver(
  openSocket: PinnedSocketFactory,
  callback?: (error: Error | null, stream: Duplex) => void,
): void {
  openSocket().then(
    (socket) => callback?.(null, socket),
    (error: unknown) =>
      callback?.(error instanceof Error ? error : new Error(String(error)), undefined as unknown as Duplex),
  );
}
