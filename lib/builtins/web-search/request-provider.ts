import { ProtolinkError } from '../../errors/protolink-error';
import { ToolCancelledError } from '../../errors/tool-cancelled-error';
import { ToolInputError } from '../../errors/tool-input-error';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import type { NetworkSeams } from '../net/network-seams';
import { safeRequest } from '../net/safe-request';
import type { SafeResponse } from '../net/safe-request';
import type { ProviderRequest } from './provider-request';
import { buildProviderError } from './provider-error';
import { WEB_SEARCH_LIMITS } from './web-search-limits';
import { WEB_SEARCH_TOOL_NAME } from './web-search-types';
import { describeAbortReason } from '../../runtime/describe-abort-reason';

/** The transport limits of one provider request (fixed in production; specs shorten the deadline). */
export interface ProviderTransportLimits {
  /** Most body bytes read. */
  maxResponseBytes: number;
  /** The deadline of the whole request, in milliseconds. */
  timeoutMs: number;
}

/**
 * Sends one provider request through the safe HTTP layer: address validation, 2,000,000 bytes, a 10 s
 * deadline, no redirects (a 3xx response comes back as it is), no truncation. Every failure becomes a new
 * error naming the provider whose message has `secrets` (the Brave key) scrubbed out and whose `cause` is a
 * plain summary: the transport's own error objects carry the request headers, so they are never attached.
 *
 * @throws ToolCancelledError when `signal` aborts.
 * @throws ToolRuntimeError naming the provider for any other failure (an address that fails validation
 * included: the endpoint is fixed, so that is the provider's or the network's fault, not the caller's).
 */
export async function requestProvider(
  request: ProviderRequest,
  seams: NetworkSeams,
  signal: AbortSignal | undefined,
  secrets: readonly string[] = [],
  limits: ProviderTransportLimits = WEB_SEARCH_LIMITS,
): Promise<SafeResponse> {
  try {
    return await safeRequest(request.url, {
      headers: request.headers,
      maxBytes: limits.maxResponseBytes,
      timeoutMs: limits.timeoutMs,
      maxRedirects: 0,
      truncate: false,
      provider: request.provider,
      signal,
      resolver: seams.resolver,
      connector: seams.connector,
      maxUrlLength: WEB_SEARCH_LIMITS.maxRequestUrlLength,
    });
  } catch (error) {
    const detail = scrub(error instanceof Error ? error.message : String(error), secrets);
    const summary = summarize(error, detail);
    if (error instanceof ToolCancelledError || signal?.aborted) {
      throw new ToolCancelledError(`${WEB_SEARCH_TOOL_NAME}: the ${request.provider} search was cancelled.`, {
        reason: signal?.aborted
          ? scrub(describeAbortReason(signal.reason) ?? '', secrets) || undefined
          : undefined,
        toolName: WEB_SEARCH_TOOL_NAME,
        cause: summary,
      });
    }
    const runtime = error instanceof ToolRuntimeError ? error : null;
    const refusedByChecks = error instanceof ToolInputError;
    throw buildProviderError(
      request.provider,
      `the request failed: ${detail}${/[.!?]$/u.test(detail) ? '' : '.'}` +
        (refusedByChecks ? ' The request was refused by the URL and address checks; nothing was sent.' : ''),
      {
        cause: summary,
        status: runtime?.status,
        retryable: runtime?.retryable ?? (error instanceof ProtolinkError ? false : true),
      },
    );
  }
}

/** A plain stand-in for the transport error: its name, code and scrubbed message, no config, no headers. */
function summarize(error: unknown, detail: string): Error {
  const summary = new Error(detail);
  summary.name = error instanceof Error ? error.name : 'Error';
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') Object.assign(summary, { code });
  return summary;
}

function scrub(message: string, secrets: readonly string[]): string {
  let scrubbed = message;
  for (const secret of secrets) {
    if (secret !== '') scrubbed = scrubbed.split(secret).join('[redacted]');
  }
  return scrubbed;
}
