import * as iconv from 'iconv-lite';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { FETCH_URL_LIMITS } from './fetch-url-limits';

/** A decoded text body. */
export interface DecodedTextBody {
  /** The media type, lower-case, without parameters (e.g. `text/html`). */
  contentType: string;
  /** Whether the body is HTML (`text/html` or `application/xhtml+xml`). */
  html: boolean;
  /** The decoded text (byte-order mark removed; undecodable bytes replaced). */
  text: string;
}

const TEXT_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/rss+xml',
  'application/atom+xml',
]);
const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/u;
const WIDE_CHARSETS = /^(utf-?16|utf-?32|ucs-?2|ucs-?4)/u;

/**
 * Checks that a response is text and decodes it. Accepted: `text/*`, `application/json`, `application/xml`,
 * RSS, Atom, and any `*+json` or `*+xml`. The charset comes from the `Content-Type` parameter (quotes
 * stripped); without one, an HTML body's byte-order mark or `<meta charset>` in its first 1024 bytes (when
 * known), else UTF-8. Undecodable bytes are replaced.
 *
 * @throws ToolRuntimeError for a missing or non-text content type, an unknown charset, or a body that holds
 *   NUL bytes (binary data labelled as text; UTF-16/32 excepted).
 */
export function decodeTextBody(
  contentTypeHeader: string | undefined,
  body: Buffer,
  url: string,
): DecodedTextBody {
  const prefix = `${FETCH_URL_LIMITS.toolName}: `;
  const fail = (detail: string): never => {
    throw new ToolRuntimeError(`${prefix}${detail}`, { toolName: FETCH_URL_LIMITS.toolName });
  };
  const header = (contentTypeHeader ?? '').trim();
  if (header === '') fail(`${url} sent no Content-Type; only text responses can be read.`);
  const [rawType, ...parameters] = header.split(';');
  const contentType = rawType.trim().toLowerCase();
  if (!MEDIA_TYPE.test(contentType) || !isTextType(contentType)) {
    fail(
      `${url} sent '${show(contentType)}', which is not a text content type; only text, HTML, JSON and XML can be read.`,
    );
  }
  const html = contentType === 'text/html' || contentType === 'application/xhtml+xml';
  const charset = readCharset(parameters) ?? (html ? sniffHtmlCharset(body) : undefined) ?? 'utf-8';
  if (!iconv.encodingExists(charset))
    fail(`${url} declares the unknown charset '${show(charset)}'; it cannot be decoded.`);
  if (!WIDE_CHARSETS.test(charset.toLowerCase()) && body.includes(0)) {
    fail(`${url} is labelled '${contentType}' but holds binary data (NUL bytes); it was not decoded.`);
  }
  const text = iconv.decode(body, charset, { stripBOM: true });
  return { contentType, html, text };
}

function isTextType(contentType: string): boolean {
  return (
    contentType.startsWith('text/') ||
    TEXT_TYPES.has(contentType) ||
    contentType.endsWith('+json') ||
    contentType.endsWith('+xml')
  );
}

function readCharset(parameters: string[]): string | undefined {
  for (const parameter of parameters) {
    const [name, ...rest] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'charset') continue;
    const value = rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/u, '$1')
      .replace(/^'(.*)'$/u, '$1')
      .trim();
    return value === '' ? undefined : value;
  }
  return undefined;
}

function show(text: string): string {
  const printable = text.replace(/[^\x20-\x7e]/gu, '?');
  return printable.length > 80 ? `${printable.slice(0, 80)}…` : printable;
}

/** The charset an HTML body declares for itself: a UTF-16 byte-order mark, or `<meta … charset=…>` early on. */
function sniffHtmlCharset(body: Buffer): string | undefined {
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  const head = body.subarray(0, 1024).toString('latin1');
  const declared = /<meta[^>]{0,200}?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]{1,40})/iu.exec(head)?.[1];
  // A page's own claim is only a hint: an unknown name falls back to UTF-8 instead of failing the call.
  return declared !== undefined && iconv.encodingExists(declared) ? declared : undefined;
}
