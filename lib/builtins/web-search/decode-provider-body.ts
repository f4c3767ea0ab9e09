import * as iconv from 'iconv-lite';
import { buildProviderError } from './provider-error';
import type { WebSearchEngine } from './web-search-types';

/** What {@link decodeProviderBody} needs from a response. */
export interface ProviderBody {
  /** Response headers (names in any case). */
  headers: Record<string, string>;
  /** The raw body bytes. */
  body: Buffer;
}

/**
 * Checks a provider response's content type (JSON or HTML, as the engine expects) and decodes the body with
 * its declared charset (UTF-8 when none is given; a byte-order mark is dropped).
 *
 * @throws ToolRuntimeError naming the provider for a missing or unexpected content type or an unknown charset.
 */
export function decodeProviderBody(
  response: ProviderBody,
  provider: WebSearchEngine,
  expects: 'json' | 'html',
): string {
  const contentType = readHeader(response.headers, 'content-type');
  const [mediaType, ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
  const accepted =
    expects === 'json'
      ? mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/u.test(mediaType)
      : mediaType === 'text/html' || mediaType === 'application/xhtml+xml';
  if (!accepted) {
    throw buildProviderError(
      provider,
      `expected ${expects === 'json' ? 'a JSON' : 'an HTML'} response but got content type '${truncate(contentType) || 'none'}'. ` +
        'The provider may be down or its API may have changed; try again later or use another engine.',
      { retryable: true },
    );
  }
  const charsetParameter = parameters.find((parameter) => parameter.startsWith('charset='));
  const charset = charsetParameter
    ? charsetParameter.slice('charset='.length).replace(/^"|"$/gu, '')
    : 'utf-8';
  if (!iconv.encodingExists(charset)) {
    throw buildProviderError(
      provider,
      `the response declares an unknown charset '${truncate(charset)}' and cannot be decoded.`,
    );
  }
  return iconv.decode(response.body, charset, { stripBOM: true });
}

function readHeader(headers: Record<string, string>, name: string): string {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return typeof value === 'string' ? value : String(value);
  }
  return '';
}

function truncate(text: string): string {
  const printable = text.replace(/[^\x20-\x7e]/gu, '?');
  return printable.length > 80 ? `${printable.slice(0, 80)}…` : printable;
}
