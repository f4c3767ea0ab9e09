import { UnsafeUrlError } from '../../../lib/errors/unsafe-url-error';
import { parseSafeUrl } from '../../../lib/builtins/net/parse-safe-url';

describe('parseSafeUrl', () => {
  it.each([
    ['http://example.com', 'http://example.com/'],
    ['HTTPS://Example.COM/Path?q=1#frag', 'https://example.com/Path?q=1'],
    ['http://example.com./a', 'http://example.com/a'],
    ['http://example.com:80/', 'http://example.com/'],
    ['https://example.com:443/', 'https://example.com/'],
    ['http://münchen.de/', 'http://xn--mnchen-3ya.de/'],
    ['http://xn--mnchen-3ya.de/', 'http://xn--mnchen-3ya.de/'],
    ['http://8.8.8.8/', 'http://8.8.8.8/'],
    ['http://[2606:4700::1111]/', 'http://[2606:4700::1111]/'],
    ['http://sub_domain.example.com/', 'http://sub_domain.example.com/'],
    ['http://example.com/a b'.replace(' ', '%20'), 'http://example.com/a%20b'],
  ])('accepts %s as %s', (raw, href) => {
    expect(parseSafeUrl(raw).href).toBe(href);
  });

  it.each([
    [undefined, 'the URL must be a non-empty string', 'malformed URL'],
    [42, 'the URL must be a non-empty string', 'malformed URL'],
    ['', 'the URL must be a non-empty string', 'malformed URL'],
    [
      'http://example.com/' + 'a'.repeat(2030),
      'the URL has 2049 characters, more than the limit of 2048',
      'URL too long',
    ],
    ['mailto:a@example.com', "the scheme 'mailto' is not allowed; use http:// or https://", 'scheme'],
    ['example.com/path', 'the URL has no scheme; use http:// or https://', 'scheme'],
    ['http:example.com', "the URL must start with 'http://' followed by a host", 'malformed URL'],
    ['http://example.com:8080/', 'port 8080 is not allowed; only 80 for http and 443 for https', 'port'],
    ['http://localhost/', "the host 'localhost' is a local name", 'local host name'],
    ['http://printer/', "the host 'printer' is not a fully qualified domain name", 'local host name'],
    ['http://10.0.0.1/', 'the address 10.0.0.1 is not public: private', 'non-public address'],
    ['http://[::1]/', 'the address [::1] is not public: loopback', 'non-public address'],
    ['http://a..example/', "the host name 'a..example' is not a valid domain name", 'malformed URL'],
  ])('refuses %j: %s', (raw, detail, reason) => {
    let caught: unknown;
    try {
      parseSafeUrl(raw, { toolName: 'fetch_url' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UnsafeUrlError);
    expect((caught as UnsafeUrlError).reason).toBe(reason);
    expect((caught as UnsafeUrlError).message).toContain(`: ${detail}. Only public http(s) URLs`);
    expect((caught as UnsafeUrlError).message.startsWith("fetch_url: refused to fetch '")).toBe(true);
    expect((caught as UnsafeUrlError).toolName).toBe('fetch_url');
  });

  it('accepts a longer URL when maxLength allows it', () => {
    expect(parseSafeUrl('http://example.com/' + 'a'.repeat(3000), { maxLength: 4000 }).pathname).toHaveLength(
      3001,
    );
  });

  it('shows a long or non-ASCII URL shortened and printable in the message', () => {
    expect(() => parseSafeUrl('ftp://exämple.com/' + 'a'.repeat(300))).toThrow(
      /^refused to fetch 'ftp:\/\/ex\?mple\.com\/a+…'/u,
    );
  });
});
