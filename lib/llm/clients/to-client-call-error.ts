import { ToolCancelledError } from '../../errors/tool-cancelled-error';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { providerLabel, scrub } from '../providers/post-provider-json';

const RETRYABLE_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504, 529]);
const MAX_DETAIL_CHARS = 500;

/** What {@link toClientCallError} knows about the failed call. */
export interface ClientCallFailure {
  /** Provider id, named in the message (`openai`, `anthropic`, `gemini`). */
  provider: string;
  /** The package whose client failed (`openai`, `@anthropic-ai/sdk`, `@google/genai`). */
  clientPackage: string;
  /** The client, whose `apiKey` (when it has one) is scrubbed from the message. */
  client: object;
  /** The signal of the call: an abort becomes a cancellation. */
  signal: AbortSignal | undefined;
}

/**
 * Turns what an official provider client threw into a Protolink error: `ToolCancelledError` when the call
 * was aborted, else `ToolRuntimeError` naming the provider, the HTTP status (when the client reports one)
 * and whether a retry may succeed. The client's own error is never kept as the cause (it may carry request
 * details), and the API key is scrubbed from the message.
 */
export function toClientCallError(
  error: unknown,
  failure: ClientCallFailure,
): ToolRuntimeError | ToolCancelledError {
  const label = providerLabel(failure.provider);
  if (failure.signal?.aborted) {
    const reason: unknown = failure.signal.reason;
    return new ToolCancelledError(`The ${label} request was canceled.`, {
      reason: reason === undefined ? undefined : reason instanceof Error ? reason.message : String(reason),
    });
  }
  const status = readStatus(error);
  const apiKey = (failure.client as { apiKey?: unknown }).apiKey;
  const raw = error instanceof Error ? error.message : String(error);
  const flat = scrub(raw, typeof apiKey === 'string' ? [apiKey] : [])
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.\s]+$/, '');
  const detail = flat.length > MAX_DETAIL_CHARS ? `${flat.slice(0, MAX_DETAIL_CHARS)}…` : flat;
  const via = `${label} (through the ${failure.clientPackage} client)`;
  if (status === undefined) {
    return new ToolRuntimeError(
      `${via} failed${detail ? `: ${detail}` : ''}. Check the client's base URL, network and options, then try again.`,
      { provider: failure.provider, retryable: true },
    );
  }
  const retryable = RETRYABLE_STATUSES.has(status);
  const hint =
    status === 401 || status === 403
      ? ' Check the API key the client was created with.'
      : status === 400 || status === 404 || status === 422
        ? ' The request was rejected; check the model name and the tool declarations.'
        : retryable
          ? ' The client gave up after its own retries; this may succeed if retried later.'
          : '';
  return new ToolRuntimeError(`${via} answered HTTP ${status}${detail ? `: ${detail}` : ''}.${hint}`, {
    provider: failure.provider,
    status,
    retryable,
  });
}

function readStatus(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599
    ? status
    : undefined;
}
