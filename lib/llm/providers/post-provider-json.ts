import { loadAxios } from '../../runtime/lazy-require';
import { ToolCancelledError } from '../../errors/tool-cancelled-error';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';

/** One JSON POST to a model provider. */
export interface ProviderJsonRequest {
  /** Provider id, named in errors (`openai`, `anthropic`, `gemini`, `ollama`). */
  provider: string;
  /** The full URL. */
  url: string;
  /** Request headers (may hold the API key; never copied into errors). */
  headers: Record<string, string>;
  /** The JSON body. */
  body: unknown;
  /** Secrets to scrub from any provider message before it reaches an error. */
  secrets: readonly string[];
  /** Aborts the request. */
  signal?: AbortSignal;
  /** Request timeout in milliseconds. */
  timeoutMs: number;
}

const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
const RETRYABLE_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504, 529]);

/**
 * Posts JSON and returns the parsed JSON body of a 2xx answer. The axios error (which carries the request
 * headers, and so the key) is never kept as a cause.
 *
 * @throws ToolRuntimeError naming the provider, the status and whether a retry may succeed.
 * @throws ToolCancelledError when the signal aborts.
 */
export async function postProviderJson(request: ProviderJsonRequest): Promise<Record<string, unknown>> {
  const label = providerLabel(request.provider);
  let response;
  try {
    response = await loadAxios().post<string>(request.url, JSON.stringify(request.body), {
      headers: { 'content-type': 'application/json', accept: 'application/json', ...request.headers },
      responseType: 'text',
      transformResponse: (data: unknown) => data,
      validateStatus: () => true,
      signal: request.signal,
      timeout: request.timeoutMs,
      maxContentLength: MAX_RESPONSE_BYTES,
      maxRedirects: 0,
      proxy: false,
    });
  } catch (error) {
    if (request.signal?.aborted || loadAxios().isCancel(error)) {
      throw new ToolCancelledError(`The ${label} request was canceled.`, {
        reason: describeAbort(request.signal),
      });
    }
    const code = (error as { code?: string }).code;
    const timedOut = code === 'ECONNABORTED' || code === 'ETIMEDOUT';
    throw new ToolRuntimeError(
      timedOut
        ? `The ${label} request timed out after ${request.timeoutMs} ms; try again or raise timeoutMs.`
        : `Could not reach ${label} at ${safeOrigin(request.url)} (${code ?? 'network error'}); check the base URL and the network, then try again.`,
      { provider: request.provider, retryable: true },
    );
  }
  const status = response.status;
  const text = typeof response.data === 'string' ? response.data : String(response.data ?? '');
  if (status < 200 || status >= 300) {
    const retryable = RETRYABLE_STATUSES.has(status);
    const detail = scrub(readProviderMessage(text), request.secrets).replace(/[.\s]+$/, '');
    const hint =
      status === 401 || status === 403
        ? ' Check the API key.'
        : status === 400 || status === 422
          ? ' The request was rejected; check the model name and the tool declarations.'
          : retryable
            ? ' This may succeed if retried later.'
            : '';
    throw new ToolRuntimeError(`${label} answered HTTP ${status}${detail ? `: ${detail}` : ''}.${hint}`, {
      provider: request.provider,
      status,
      retryable,
    });
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // Falls through to the error below.
  }
  throw new ToolRuntimeError(`${label} answered HTTP ${status} with a body that is not a JSON object.`, {
    provider: request.provider,
    status,
    retryable: false,
  });
}

/** Removes every secret (and anything that looks like a bearer key) from provider text. */
export function scrub(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) if (secret.length >= 4) result = result.split(secret).join('[redacted]');
  return result
    .replace(/\bsk-[A-Za-z0-9_*-]{8,}/g, 'sk-…[redacted]')
    .replace(/AIza[0-9A-Za-z_-]{10,}/g, 'AIza…[redacted]');
}

function readProviderMessage(text: string): string {
  let message = text;
  try {
    const parsed = JSON.parse(text) as unknown;
    const body = (Array.isArray(parsed) ? parsed[0] : parsed) as {
      error?: { message?: unknown } | string;
      message?: unknown;
    };
    if (typeof body?.error === 'string') message = body.error;
    else if (typeof body?.error?.message === 'string') message = body.error.message;
    else if (typeof body?.message === 'string') message = body.message;
  } catch {
    // Not JSON: use the text itself.
  }
  message = message.replace(/\s+/g, ' ').trim();
  return message.length > 500 ? `${message.slice(0, 500)}…` : message;
}

/** The display name of a provider id. */
export function providerLabel(provider: string): string {
  const labels: Record<string, string> = {
    openai: 'OpenAI',
    anthropic: 'Anthropic',
    gemini: 'Gemini',
    ollama: 'Ollama',
    vllm: 'vLLM',
  };
  return labels[provider] ?? provider;
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the configured URL';
  }
}

function describeAbort(signal: AbortSignal | undefined): string | undefined {
  const reason: unknown = signal?.reason;
  if (reason === undefined) return undefined;
  return reason instanceof Error ? reason.message : String(reason);
}
