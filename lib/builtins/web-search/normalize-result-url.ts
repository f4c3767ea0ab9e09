import { WEB_SEARCH_LIMITS } from './web-search-limits';

const FORBIDDEN_CHARACTERS = /[\s\u0000-\u001f\u007f-\u009f<>"{}|\\^`]/u;

/**
 * Returns a result URL in canonical form, or null when it must be dropped. Accepted: at most 2048
 * characters, no whitespace, control characters or `<>"{}|\^` and backtick, scheme http or https followed by `//` and a host,
 * no user name or password. The host is lower-cased, IDNA-encoded and loses a trailing dot, IPv6 hosts are
 * bracketed, the port is kept, an empty path becomes `/`, the fragment is dropped, and `[`, `]` and stray `%`
 * outside the host are percent-encoded so the result is a valid RFC 3986 URI.
 */
export function normalizeResultUrl(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > WEB_SEARCH_LIMITS.maxResultUrlLength)
    return null;
  if (hasForbiddenUrlCharacters(raw) || !/^https?:\/\/[^/?#]/iu.test(raw)) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (parsed.username !== '' || parsed.password !== '') return null;
  if (parsed.hostname.endsWith('.')) {
    const hostname = parsed.hostname.replace(/\.+$/u, '');
    if (hostname === '') return null;
    parsed.hostname = hostname;
  }
  if (parsed.hostname === '' || parsed.hostname.endsWith('.')) return null;
  parsed.hash = '';
  const href = `${parsed.protocol}//${parsed.host}${encodeUriExtras(parsed.pathname)}${encodeUriExtras(parsed.search)}`;
  return href.length > WEB_SEARCH_LIMITS.maxResultUrlLength ? null : href;
}

/** Whether a raw URL holds whitespace, a control character or one of `<>"{}|\^` and backtick. */
export function hasForbiddenUrlCharacters(raw: string): boolean {
  return FORBIDDEN_CHARACTERS.test(raw);
}

function encodeUriExtras(part: string): string {
  return part
    .replace(/%(?![0-9a-fA-F]{2})/gu, '%25')
    .replace(/\[/gu, '%5B')
    .replace(/\]/gu, '%5D');
}
