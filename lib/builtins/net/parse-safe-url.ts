import * as net from 'node:net';
import { buildUnsafeUrlError } from './build-unsafe-url-error';
import { describeNonPublicAddress } from './is-public-address';

/** Options of {@link parseSafeUrl}. */
export interface ParseSafeUrlOptions {
  /** Longest accepted URL, in characters (default 2048). */
  maxLength?: number;
  /** The tool named in error messages. */
  toolName?: string;
}

/** Host names that never reach a public server (RFC 6761, RFC 8375, ICANN `.internal`, /etc/hosts aliases). */
const LOCAL_NAMES = new Set([
  'localhost',
  'localhost.localdomain',
  'ip6-localhost',
  'ip6-loopback',
  'broadcasthost',
]);
const LOCAL_SUFFIXES = ['.localhost', '.local', '.localdomain', '.internal', '.home.arpa'];

// Whitespace, C0/C1 controls, DEL and Unicode format characters (soft hyphen, zero-width and bidi marks).
const FORBIDDEN_CHARACTERS = /[\s\u0000-\u001f\u007f-\u009f\\\p{Cf}]/u;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/u;
const NAME_LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/u;

/**
 * Checks a URL against the safe HTTP layer's rules and returns its one WHATWG parse, fragment removed.
 * Raw-string rules first (length, no whitespace, controls, format characters or backslashes, `http://`
 * or `https://` followed by a host, no `@` or `%` in the authority), then the parse, then: no credentials,
 * only the default port of the scheme, no local names (`localhost`, `*.localhost`, `*.local`, …), no
 * single-label names, no host written in characters that fold to ASCII (circled or fullwidth letters),
 * and an IP literal must be public. One trailing dot of a name is dropped.
 *
 * @throws UnsafeUrlError naming the URL and the rule it broke.
 */
export function parseSafeUrl(raw: unknown, options: ParseSafeUrlOptions = {}): URL {
  const maxLength = options.maxLength ?? 2048;
  const refuse = (shown: string, detail: string, reason: string, cause?: unknown): never => {
    throw buildUnsafeUrlError(shown, detail, reason, { toolName: options.toolName, cause });
  };
  if (typeof raw !== 'string' || raw.length === 0) {
    return refuse(String(raw), 'the URL must be a non-empty string', 'malformed URL');
  }
  if (raw.length > maxLength) {
    return refuse(
      raw,
      `the URL has ${raw.length} characters, more than the limit of ${maxLength}`,
      'URL too long',
    );
  }
  if (FORBIDDEN_CHARACTERS.test(raw)) {
    return refuse(
      raw,
      'the URL contains whitespace, a control character, a backslash or an invisible character',
      'malformed URL',
    );
  }
  const scheme = SCHEME.exec(raw)?.[1]?.toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') {
    const detail = scheme === undefined ? 'the URL has no scheme' : `the scheme '${scheme}' is not allowed`;
    return refuse(raw, `${detail}; use http:// or https://`, 'scheme');
  }
  if (raw.slice(scheme.length + 1, scheme.length + 3) !== '//') {
    return refuse(raw, `the URL must start with '${scheme}://' followed by a host`, 'malformed URL');
  }
  const authority = raw.slice(scheme.length + 3).split(/[/?#]/u, 1)[0];
  if (authority === '') return refuse(raw, 'the URL has no host', 'malformed URL');
  if (authority.includes('@'))
    return refuse(raw, 'URLs with credentials (user:password@) are not allowed', 'credentials');
  if (authority.includes('%'))
    return refuse(raw, 'percent-encoded characters are not allowed in the host', 'malformed URL');
  let url: URL;
  try {
    url = new URL(raw);
  } catch (error) {
    return refuse(raw, 'the URL cannot be parsed', 'malformed URL', error);
  }
  if (url.username !== '' || url.password !== '') {
    return refuse(raw, 'URLs with credentials (user:password@) are not allowed', 'credentials');
  }
  if (url.port !== '') {
    return refuse(raw, `port ${url.port} is not allowed; only 80 for http and 443 for https`, 'port');
  }
  url.hash = '';
  assertSafeHost(url, /[^\x00-\x7f]/u.test(authority), (detail, reason) => refuse(raw, detail, reason));
  return url;
}

function assertSafeHost(
  url: URL,
  nonAsciiAuthority: boolean,
  refuse: (detail: string, reason: string) => never,
): void {
  const hostname = url.hostname;
  if (hostname.startsWith('[')) {
    const problem = describeNonPublicAddress(hostname.slice(1, -1));
    if (problem !== null) refuse(`the address ${hostname} is not public: ${problem}`, 'non-public address');
    return;
  }
  if (net.isIPv4(hostname)) {
    if (nonAsciiAuthority)
      refuse('the IP address is written with look-alike (non-ASCII) digits', 'look-alike host');
    const problem = describeNonPublicAddress(hostname);
    if (problem !== null) refuse(`the address ${hostname} is not public: ${problem}`, 'non-public address');
    return;
  }
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  const labels = name.split('.');
  if (name === '' || labels.some((label) => !NAME_LABEL.test(label))) {
    refuse(`the host name '${hostname}' is not a valid domain name`, 'malformed URL');
  }
  if (LOCAL_NAMES.has(name) || LOCAL_SUFFIXES.some((suffix) => name.endsWith(suffix))) {
    refuse(`the host '${name}' is a local name`, 'local host name');
  }
  if (labels.length < 2) refuse(`the host '${name}' is not a fully qualified domain name`, 'local host name');
  if (nonAsciiAuthority && !labels.some((label) => label.startsWith('xn--'))) {
    refuse(`the host is written with look-alike characters that fold to '${name}'`, 'look-alike host');
  }
  if (name !== hostname) url.hostname = name;
}
