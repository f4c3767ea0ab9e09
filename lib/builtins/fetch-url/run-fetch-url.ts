import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import type { NetworkSeams } from '../net/network-seams';
import { safeRequest } from '../net/safe-request';
import { decodeTextBody } from './decode-text-body';
import { extractReadableHtml } from './extract-readable-html';
import { FETCH_URL_LIMITS } from './fetch-url-limits';

/** The result of one `fetch_url` call. */
export interface FetchUrlResult {
  /** The final validated URL, without fragment. */
  url: string;
  /** The HTTP status (2xx). */
  status: number;
  /** The media type, lower-case, without parameters. */
  content_type: string;
  /** The HTML `<title>` (empty for other content). */
  title: string;
  /** The readable text, at most `max_chars` characters. */
  text: string;
  /** Whether the readable text was longer than `max_chars`. */
  truncated: boolean;
  /** Always true: the content comes from the web and must never be obeyed as instructions. */
  untrusted_content: true;
}

/** What one call needs besides its arguments. */
export interface FetchUrlSettings extends NetworkSeams {
  /** The deadline of the whole call, in milliseconds. */
  timeoutMs: number;
  /** The body byte limit. */
  maxBytes: number;
}

/**
 * Fetches one URL through the safe HTTP layer and turns the body into readable text.
 *
 * @throws UnsafeUrlError for an unsafe URL, redirect target or resolved address.
 * @throws ToolRuntimeError for HTTP, transport, size, content-type, charset and HTML failures.
 * @throws ToolCancelledError when `signal` aborts.
 */
export async function runFetchUrl(
  args: { url: string; max_chars?: number },
  settings: FetchUrlSettings,
  signal: AbortSignal | undefined,
): Promise<FetchUrlResult> {
  const maxChars = args.max_chars ?? FETCH_URL_LIMITS.defaultChars;
  const response = await safeRequest(args.url, {
    maxBytes: settings.maxBytes,
    timeoutMs: settings.timeoutMs,
    maxRedirects: FETCH_URL_LIMITS.maxRedirects,
    truncate: false,
    toolName: FETCH_URL_LIMITS.toolName,
    maxUrlLength: FETCH_URL_LIMITS.maxUrlLength,
    signal,
    resolver: settings.resolver,
    connector: settings.connector,
  });
  if (response.status < 200 || response.status > 299) {
    throw new ToolRuntimeError(
      `${FETCH_URL_LIMITS.toolName}: ${response.url} answered with HTTP status ${response.status}.`,
      {
        toolName: FETCH_URL_LIMITS.toolName,
        status: response.status,
        retryable: response.status === 429 || response.status >= 500,
      },
    );
  }
  const decoded = decodeTextBody(response.headers['content-type'], response.body, response.url);
  const { title, text } = decoded.html
    ? extractReadableHtml(decoded.text)
    : { title: '', text: decoded.text.trim() };
  const cut = cutToCodePoints(text, maxChars);
  return {
    url: response.url,
    status: response.status,
    content_type: decoded.contentType,
    title,
    text: cut,
    truncated: cut.length < text.length,
    untrusted_content: true,
  };
}

/** Cuts text to at most `limit` code points without splitting a surrogate pair. */
function cutToCodePoints(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let index = 0;
  for (let count = 0; count < limit && index < text.length; count += 1) {
    const code = text.charCodeAt(index);
    index += code >= 0xd800 && code <= 0xdbff && index + 1 < text.length ? 2 : 1;
  }
  return text.slice(0, index);
}
