import * as http from 'node:http';
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import * as https from 'node:https';
import type { Readable } from 'node:stream';
import { loadAxios } from '../../runtime/lazy-require';
import type { AxiosResponse } from 'axios';
import { ProtolinkError } from '../../errors/protolink-error';
import { ToolCancelledError } from '../../errors/tool-cancelled-error';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { showUrl } from './build-unsafe-url-error';
import { createPinnedAgents } from './create-pinned-agents';
import type { NetworkSeams } from './network-seams';
import { openPinnedSocket } from './open-pinned-socket';
import { parseSafeUrl } from './parse-safe-url';
import { buildTooLargeError, readLimitedBody } from './read-limited-body';
import { REDIRECT_STATUSES, resolveRedirectTarget } from './resolve-redirect-target';
import { RequestDeadline } from './request-deadline';
import { toNetworkError } from './to-network-error';

/** Options of {@link safeRequest}. */
export interface SafeRequestOptions extends NetworkSeams {
  /** Extra request headers (`Accept`, `User-Agent`, an API key…); `Accept-Encoding` and `Connection` are fixed. */
  headers?: Record<string, string>;
  /** Most body bytes read, counted while streaming. */
  maxBytes: number;
  /** One deadline, in milliseconds, for the whole request: DNS, connect, headers, body and every redirect. */
  timeoutMs: number;
  /** Redirects followed (each fully re-validated); 0 returns a 3xx response as it is. */
  maxRedirects: number;
  /** Cut a longer body at `maxBytes` and set `truncated` (true), or fail with ToolRuntimeError (false). */
  truncate: boolean;
  /** The provider named in runtime errors (e.g. `brave`). */
  provider?: string;
  /** The tool named in error messages (e.g. `fetch_url`). */
  toolName?: string;
  /** Cancels the request: ToolCancelledError. */
  signal?: AbortSignal;
  /** Longest accepted URL, for the first URL and every redirect target (default 2048). */
  maxUrlLength?: number;
}

/** The final response of {@link safeRequest}. */
export interface SafeResponse {
  /** The HTTP status of the final response. */
  status: number;
  /** Response headers, names lower-case, repeated values joined with `, `. */
  headers: Record<string, string>;
  /** The body bytes (at most `maxBytes`), never decompressed. */
  body: Buffer;
  /** The final URL (after redirects), fragment removed. */
  url: string;
  /** Whether the body was cut at `maxBytes` (only with `truncate: true`). */
  truncated: boolean;
  /** The URLs that redirected, in order (empty without redirects). */
  redirects: string[];
}

/** Headers sent unless the caller gives its own. */
const DEFAULT_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  accept: 'text/html, text/plain, application/json, application/xml;q=0.9',
  'user-agent': 'ProtoLink-Builtin-Tools',
});

/** Headers a caller can never set: encoding, framing, routing and cookies are the layer's own. */
const FIXED_HEADERS = new Set([
  'accept-encoding',
  'connection',
  'host',
  'content-length',
  'transfer-encoding',
  'te',
  'upgrade',
  'cookie',
  'proxy-authorization',
  'keep-alive',
]);

let client: ReturnType<ReturnType<typeof loadAxios>['create']> | undefined;

/**
 * Sends one GET through the safe HTTP layer: the URL passes the raw-string and parsed rules, every resolved
 * address is validated inside the connection's own socket factory (so the socket reaches only a validated
 * address), IP literals are checked before any connection, redirects are followed manually (each target
 * fully re-validated, no HTTPS → HTTP downgrade, loops detected), no proxy is ever used, the body is never
 * decompressed (`Accept-Encoding: identity`; a 2xx response with another `Content-Encoding` is refused),
 * bytes are counted while streaming, and one deadline covers everything.
 *
 * @throws UnsafeUrlError (a ToolInputError) for an unsafe URL, redirect target or resolved address.
 * @throws ToolRuntimeError for DNS, connection, HTTP framing, size, encoding, redirect and deadline failures.
 * @throws ToolCancelledError when `signal` aborts.
 */
export async function safeRequest(url: string, options: SafeRequestOptions): Promise<SafeResponse> {
  const maxUrlLength = options.maxUrlLength ?? 2048;
  let current = parseSafeUrl(url, { maxLength: maxUrlLength, toolName: options.toolName });
  const deadline = new RequestDeadline(options.timeoutMs, options.signal);
  const redirects: string[] = [];
  const visited = new Set([current.href]);
  try {
    for (;;) {
      const response = await sendOnce(current, options, deadline);
      const status = response.status;
      if (REDIRECT_STATUSES.has(status) && options.maxRedirects > 0) {
        response.discard();
        if (redirects.length >= options.maxRedirects) {
          throw new ToolRuntimeError(
            `${prefix(options)}exceeded the ${options.maxRedirects}-redirect limit (last hop: ${showUrl(current.href)}).`,
            { toolName: options.toolName, provider: options.provider, status },
          );
        }
        const next = resolveRedirectTarget(current, response.headers.location, {
          status,
          visited,
          maxUrlLength,
          toolName: options.toolName,
          provider: options.provider,
        });
        redirects.push(current.href);
        visited.add(next.href);
        current = next;
        continue;
      }
      return await readFinalResponse(current, response, options, deadline, redirects);
    }
  } catch (error) {
    throw explainFailure(error, current, options, deadline);
  } finally {
    deadline.dispose();
  }
}

interface HopResponse {
  status: number;
  headers: Record<string, string>;
  stream: Readable;
  discard(): void;
  /** The first error the request or its socket reported after the headers arrived. */
  failure(): unknown;
}

async function sendOnce(
  url: URL,
  options: SafeRequestOptions,
  deadline: RequestDeadline,
): Promise<HopResponse> {
  let connectionFailure: unknown;
  const agents = createPinnedAgents(async () => {
    try {
      return await openPinnedSocket(url, {
        seams: { resolver: options.resolver, connector: options.connector },
        deadline,
        toolName: options.toolName,
        provider: options.provider,
      });
    } catch (error) {
      connectionFailure = error;
      throw error;
    }
  });
  let failure: unknown;
  // The native http/https transport, with the request's own errors captured from the first moment: a parser
  // error (bad chunking) can fire in the same tick as the headers, before the response reaches us.
  const transport = {
    request(requestOptions: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
      if (requestOptions.agent !== agents.httpAgent && requestOptions.agent !== agents.httpsAgent) {
        // Never reached with today's axios; if a future version swapped the agent, refuse rather than resolve twice.
        throw new ToolRuntimeError(
          `${prefix(options)}internal error: the request lost its pinned connection agent.`,
          {
            toolName: options.toolName,
            provider: options.provider,
          },
        );
      }
      // What reaches the wire is the layer's own: global axios settings of the host application
      // (axios.defaults headers, params, auth) never leak to the URL a model chose.
      const wireOptions: RequestOptions = {
        ...requestOptions,
        path: `${url.pathname}${url.search}`,
        headers: buildHeaders(options.headers),
      };
      delete wireOptions.auth;
      const request = (wireOptions.protocol === 'https:' ? https : http).request(wireOptions, callback);
      request.on('error', (error: unknown) => {
        failure ??= error;
      });
      return request;
    },
  };
  let response: AxiosResponse<Readable>;
  try {
    // A fresh literal per request: every security-relevant option is an own property (prototype-pollution gadgets).
    response = await (client ??= loadAxios().create()).request<Readable>({
      url: url.href,
      method: 'GET',
      adapter: 'http',
      // HTTP/1.1 only: axios's HTTP/2 client would open its own, unchecked connection.
      httpVersion: 1,
      headers: buildHeaders(options.headers),
      maxRedirects: 0,
      transport,
      validateStatus: () => true,
      proxy: false,
      httpAgent: agents.httpAgent,
      httpsAgent: agents.httpsAgent,
      decompress: false,
      responseType: 'stream',
      transformResponse: [],
      maxContentLength: options.truncate ? -1 : options.maxBytes,
      maxBodyLength: 1024,
      insecureHTTPParser: false,
      signal: deadline.signal,
    });
  } catch (error) {
    agents.httpAgent.destroy();
    agents.httpsAgent.destroy();
    throw connectionFailure ?? error;
  }
  const stream = response.data;
  const request = response.request as ClientRequest | undefined;
  const discard = (): void => {
    stream.destroy();
    request?.destroy();
    agents.httpAgent.destroy();
    agents.httpsAgent.destroy();
  };
  stream.once('close', () => {
    agents.httpAgent.destroy();
    agents.httpsAgent.destroy();
  });
  return {
    status: response.status,
    headers: flattenHeaders(response.headers),
    stream,
    discard,
    failure: () => failure,
  };
}

async function readFinalResponse(
  url: URL,
  response: HopResponse,
  options: SafeRequestOptions,
  deadline: RequestDeadline,
  redirects: string[],
): Promise<SafeResponse> {
  try {
    const ok = response.status >= 200 && response.status < 300;
    const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
    if (ok && encoding !== '' && encoding !== 'identity') {
      throw new ToolRuntimeError(
        `${prefix(options)}${showUrl(url.href)} sent a body with Content-Encoding '${showUrl(encoding).slice(0, 40)}' ` +
          'although only identity was accepted; compressed bodies are never decompressed (decompression bombs).',
        { toolName: options.toolName, provider: options.provider, status: response.status },
      );
    }
    const declared = response.headers['content-length'];
    if (!options.truncate && declared !== undefined && Number(declared) > options.maxBytes) {
      throw buildTooLargeError(options);
    }
    const { body, truncated } = await readLimitedBody(response.stream, {
      maxBytes: options.maxBytes,
      truncate: options.truncate,
      signal: deadline.signal,
      toolName: options.toolName,
      provider: options.provider,
      failure: response.failure,
    });
    return { status: response.status, headers: response.headers, body, url: url.href, truncated, redirects };
  } finally {
    response.discard();
  }
}

function buildHeaders(extra: Record<string, string> | undefined): Record<string, string> {
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  Object.assign(headers, DEFAULT_HEADERS);
  for (const [name, value] of Object.entries(extra ?? {})) {
    const key = name.toLowerCase();
    if (FIXED_HEADERS.has(key) || typeof value !== 'string') continue;
    headers[key] = value;
  }
  headers['accept-encoding'] = 'identity';
  headers.connection = 'close';
  return { ...headers };
}

function flattenHeaders(source: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  const entries =
    source !== null &&
    typeof source === 'object' &&
    typeof (source as { toJSON?: unknown }).toJSON === 'function'
      ? Object.entries((source as { toJSON(): Record<string, unknown> }).toJSON())
      : Object.entries((source ?? {}) as Record<string, unknown>);
  for (const [name, value] of entries) {
    if (value === undefined || value === null || value === false) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.map(String).join(', ') : String(value);
  }
  return headers;
}

function explainFailure(
  error: unknown,
  url: URL,
  options: SafeRequestOptions,
  deadline: RequestDeadline,
): unknown {
  if (deadline.cancelled) {
    const reason = options.signal?.reason;
    return new ToolCancelledError(`${prefix(options)}the request to ${showUrl(url.href)} was cancelled.`, {
      toolName: options.toolName,
      reason: reason === undefined ? undefined : reason instanceof Error ? reason.message : String(reason),
      cause: error,
    });
  }
  if (deadline.timedOut) {
    return new ToolRuntimeError(
      `${prefix(options)}the request to ${showUrl(url.href)} did not finish within the ${options.timeoutMs} ms deadline.`,
      { toolName: options.toolName, provider: options.provider, cause: error, retryable: true },
    );
  }
  if (error instanceof ProtolinkError) return error;
  return toNetworkError(error, showUrl(url.href), options);
}

function prefix(options: { toolName?: string }): string {
  return options.toolName === undefined ? '' : `${options.toolName}: `;
}
