import { postProviderJson } from './post-provider-json';

/** The connection options every provider model takes. */
export interface ModelConnectionOptions {
  /** API base; trailing slashes are ignored. */
  baseUrl?: string;
  /** Per-request timeout in milliseconds (default 60 000). */
  timeoutMs?: number;
  /** Extra headers, sent before (and overridden by) the authentication headers. */
  headers?: Record<string, string>;
}

/** One model call of {@link postModelCall}. */
export interface ModelCallRequest {
  /** Provider id, named in errors. */
  provider: string;
  /** The model's connection options. */
  options: ModelConnectionOptions;
  /** The API base used when `options.baseUrl` is absent. */
  defaultBaseUrl: string;
  /** The endpoint path appended to the base, starting with `/`. */
  path: string;
  /** The API key, scrubbed from any error; undefined when the server takes none. */
  apiKey: string | undefined;
  /** The headers that carry the key (and any required protocol headers). */
  authHeaders: Record<string, string>;
  /** The JSON body. */
  body: unknown;
  /** Aborts the request. */
  signal?: AbortSignal;
}

/**
 * Posts one model call: resolves the URL from the base and path, merges the extra and authentication
 * headers, applies the default timeout, and returns the parsed JSON body.
 *
 * @throws ToolRuntimeError naming the provider, the status and whether a retry may succeed.
 * @throws ToolCancelledError when the signal aborts.
 */
export function postModelCall(request: ModelCallRequest): Promise<Record<string, unknown>> {
  const baseUrl = (request.options.baseUrl ?? request.defaultBaseUrl).replace(/\/+$/, '');
  return postProviderJson({
    provider: request.provider,
    url: `${baseUrl}${request.path}`,
    headers: { ...(request.options.headers ?? {}), ...request.authHeaders },
    body: request.body,
    secrets: request.apiKey ? [request.apiKey] : [],
    signal: request.signal,
    timeoutMs: request.options.timeoutMs ?? 60_000,
  });
}
