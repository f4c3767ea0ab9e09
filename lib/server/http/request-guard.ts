import { hash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { readBearerToken } from '../../mcp/wire/read-bearer-token';

/** Host names a loopback server answers to by default. */
export const LOOPBACK_HOSTNAMES: readonly string[] = Object.freeze(['127.0.0.1', 'localhost', '[::1]']);

/** Options of {@link RequestGuard}. */
export interface RequestGuardOptions {
  /** The port the server listens on (its own origins are allowed). */
  port: number;
  /** The host name the server was asked to listen on (always allowed in `Host`). */
  listenHostname: string;
  /**
   * The URL clients use behind a proxy or load balancer: its host (with its port, the default one when it
   * has none) and its origin are accepted like the server's own.
   */
  publicUrl?: URL;
  /** Extra `Host` values: a host name (any port) or `host:port`. */
  allowedHosts?: readonly string[];
  /** Extra allowed `Origin` values (`https://app.example.com`), or `'*'` to allow any origin. */
  allowedOrigins?: readonly string[] | '*';
  /** The bearer token every `/mcp` request must carry, or null/undefined for none. */
  token?: string | null;
}

/** Why a request was refused: the HTTP status, the JSON-RPC code and a message, plus response headers. */
export interface GuardRejection {
  readonly status: number;
  readonly code: number;
  readonly message: string;
  readonly headers?: Record<string, string>;
}

/**
 * Checks the `Host` and `Origin` headers against allow-lists (DNS rebinding protection: a browser page on
 * a foreign name that resolves to 127.0.0.1 sends that foreign name) and the bearer token (compared in
 * constant time over SHA-256 digests, so neither content nor length leaks through timing).
 */
export class RequestGuard {
  private readonly hostnames: Set<string>;
  private readonly hostsWithPort: Set<string>;
  private readonly origins: Set<string> | '*';
  private readonly ownOrigins: Set<string>;
  private readonly tokenDigest: Buffer | undefined;

  constructor(options: RequestGuardOptions) {
    this.hostnames = new Set([...LOOPBACK_HOSTNAMES, normalizeHostname(options.listenHostname)]);
    this.hostsWithPort = new Set();
    const publicUrl = options.publicUrl;
    if (publicUrl) {
      // URL.host leaves out the scheme's default port; a client may still write it out.
      const defaultPort = publicUrl.protocol === 'https:' ? '443' : '80';
      const hostname = normalizeHostname(publicUrl.hostname);
      this.hostsWithPort.add(publicUrl.host.toLowerCase());
      this.hostsWithPort.add(`${hostname}:${publicUrl.port || defaultPort}`);
    }
    for (const entry of options.allowedHosts ?? []) {
      const value = entry.trim().toLowerCase();
      if (/:\d+$/.test(value)) this.hostsWithPort.add(value);
      else this.hostnames.add(normalizeHostname(value));
    }
    if (options.allowedOrigins === '*') {
      this.origins = '*';
    } else {
      this.origins = new Set([
        ...ownOrigins(options),
        ...(publicUrl ? publicOrigins(publicUrl) : []),
        ...(options.allowedOrigins ?? []).map(normalizeOrigin),
      ]);
    }
    this.ownOrigins = new Set(ownOrigins(options));
    this.tokenDigest = options.token ? digest(options.token) : undefined;
  }

  /** Returns why the request's `Host` or `Origin` is refused, or undefined when both are allowed. */
  checkOrigin(request: IncomingMessage): GuardRejection | undefined {
    const host = request.headers.host?.trim().toLowerCase();
    if (!host) return { status: 400, code: -32600, message: 'Bad Request: the Host header is missing.' };
    if (!this.hostsWithPort.has(host) && !this.hostnames.has(hostnameOf(host))) {
      return {
        status: 403,
        code: -32000,
        message: `Forbidden: Host '${host}' is not allowed (DNS rebinding protection).`,
      };
    }
    const origin = request.headers.origin;
    if (origin !== undefined && this.origins !== '*' && !this.origins.has(normalizeOrigin(origin))) {
      return { status: 403, code: -32000, message: `Forbidden: Origin '${origin}' is not allowed.` };
    }
    return undefined;
  }

  /**
   * Whether a URL names the server itself, as it listens (a loopback name or the listen host, at its port,
   * with no path): such a URL on the card means nothing to a client behind a proxy.
   */
  isListenUrl(url: string): boolean {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    return parsed.pathname === '/' && this.ownOrigins.has(normalizeOrigin(parsed.origin));
  }

  /** Returns why the request's bearer token is refused, or undefined when it matches (or none is required). */
  checkToken(request: IncomingMessage): GuardRejection | undefined {
    if (!this.tokenDigest) return undefined;
    const token = readBearerToken(request);
    if (token === undefined) {
      return {
        status: 401,
        code: -32001,
        message: 'Unauthorized: send the header "Authorization: Bearer <token>".',
        headers: { 'www-authenticate': 'Bearer realm="protolink"' },
      };
    }
    if (!timingSafeEqual(digest(token), this.tokenDigest)) {
      return {
        status: 401,
        code: -32001,
        message: 'Unauthorized: the bearer token is not valid.',
        headers: { 'www-authenticate': 'Bearer realm="protolink", error="invalid_token"' },
      };
    }
    return undefined;
  }
}

/** SHA-256 of a token, so tokens of any length compare in constant time (one-shot: no Hash object per request). */
function digest(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}

/** The origins of the server as it listens: every loopback name and the listen host, at its port. */
function ownOrigins(options: RequestGuardOptions): string[] {
  return [...LOOPBACK_HOSTNAMES, normalizeHostname(options.listenHostname)].map((hostname) =>
    normalizeOrigin(`http://${hostname}:${options.port}`),
  );
}

function normalizeHostname(hostname: string): string {
  const lower = hostname.trim().toLowerCase();
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower;
}

function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.indexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

function normalizeOrigin(origin: string): string {
  try {
    return new URL(origin).origin.toLowerCase();
  } catch {
    return origin.trim().toLowerCase();
  }
}

/**
 * The origins of the public URL: itself, and when it names loopback (a local proxy), the same port under
 * every loopback name, as the server's own origins are.
 */
function publicOrigins(publicUrl: URL): string[] {
  const origin = normalizeOrigin(publicUrl.origin);
  if (!LOOPBACK_HOSTNAMES.includes(normalizeHostname(publicUrl.hostname))) return [origin];
  const port = publicUrl.port ? `:${publicUrl.port}` : '';
  return [
    origin,
    ...LOOPBACK_HOSTNAMES.map((name) => normalizeOrigin(`${publicUrl.protocol}//${name}${port}`)),
  ];
}
