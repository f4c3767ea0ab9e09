import { isIP } from 'node:net';
import { ToolInputError } from '../errors/tool-input-error';

/** Where a server listens. */
export interface ListenAddress {
  /** The address passed to `listen()` (`127.0.0.1`, `::1`, `0.0.0.0`). */
  readonly host: string;
  /** The host name as written in the URL (for `Host` checks and the public URL). */
  readonly hostname: string;
  /** The port (0: any free one). */
  readonly port: number;
}

/**
 * Parses the URL a server should listen on and refuses every non-loopback interface unless
 * `allowNonLoopback` is set (`localhost` binds to 127.0.0.1).
 *
 * @throws ToolInputError for a URL that is not `http://host:port`, or a non-loopback host without the flag.
 */
export function resolveListenAddress(url: string, allowNonLoopback = false): ListenAddress {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new ToolInputError(`Cannot serve on '${url}': not a URL. Use e.g. http://127.0.0.1:8080.`, {
      cause: error,
    });
  }
  if (parsed.protocol !== 'http:') {
    throw new ToolInputError(
      `Cannot serve on '${url}': only http:// is served; put a TLS proxy in front for https and listen on http://127.0.0.1:<port>.`,
    );
  }
  if (parsed.pathname !== '/' || parsed.search || parsed.username || parsed.password) {
    throw new ToolInputError(
      `Cannot serve on '${url}': give only scheme, host and port (the endpoints are /mcp and /.well-known/agent.json).`,
    );
  }
  const hostname = parsed.hostname.toLowerCase();
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const host = bare === 'localhost' ? '127.0.0.1' : bare;
  const port = parsed.port === '' ? 80 : Number(parsed.port);
  if (!allowNonLoopback && !isLoopbackAddress(host)) {
    throw new ToolInputError(
      `Refusing to listen on '${hostname}': it is not a loopback address, so other machines could call the agent's tools. ` +
        'Pass { allowNonLoopback: true } (and a token) to serve on it deliberately.',
    );
  }
  if (isIP(host) === 0 && !allowNonLoopback) {
    throw new ToolInputError(`Cannot serve on '${url}': use an IP address or localhost.`);
  }
  return { host, hostname, port };
}

/** Returns whether an IP address is a loopback address (127.0.0.0/8 or ::1). */
export function isLoopbackAddress(address: string): boolean {
  if (isIP(address) === 4) return address.startsWith('127.');
  if (isIP(address) === 6) return address === '::1' || /^::ffff:(7f[0-9a-f]{2}:|127\.)/i.test(address);
  return false;
}
