import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { UnsafeUrlError } from '../../../lib/errors/unsafe-url-error';
import { REDIRECT_STATUSES, resolveRedirectTarget } from '../../../lib/builtins/net/resolve-redirect-target';

const current = new URL('https://site.example/dir/page?x=1');
const base = {
  status: 302,
  visited: new Set<string>([current.href]),
  maxUrlLength: 2048,
  toolName: 'fetch_url',
};

describe('resolveRedirectTarget', () => {
  it('lists the redirect statuses it follows', () => {
    expect([...REDIRECT_STATUSES]).toEqual([301, 302, 303, 307, 308]);
  });

  it.each([
    ['next', 'https://site.example/dir/next'],
    ['/root#frag', 'https://site.example/root'],
    ['//other.example/p', 'https://other.example/p'],
    ['https://other.example:443/', 'https://other.example/'],
    ['?y=2', 'https://site.example/dir/page?y=2'],
  ])('resolves %s against the current URL', (location, href) => {
    expect(resolveRedirectTarget(current, location, base).href).toBe(href);
  });

  it.each([undefined, '', '   '])('throws ToolRuntimeError for the missing Location %j', (location) => {
    expect(() => resolveRedirectTarget(current, location, base)).toThrow(ToolRuntimeError);
    expect(() => resolveRedirectTarget(current, location, base)).toThrow(
      'fetch_url: https://site.example/dir/page?x=1 answered with a redirect (HTTP 302) but no Location header.',
    );
  });

  it('throws ToolRuntimeError for a loop back to a visited URL', () => {
    expect(() => resolveRedirectTarget(current, '/dir/page?x=1#again', base)).toThrow(
      'fetch_url: redirect loop: https://site.example/dir/page?x=1 redirects back to https://site.example/dir/page?x=1.',
    );
  });

  it.each([
    ['http://site.example/', 'redirect downgrade'],
    ['http://[::1]/', 'non-public address'],
    ['https://user@site.example/', 'credentials'],
    ['/a\\b', 'malformed URL'],
    ['https://site.example/\u0000', 'malformed URL'],
    ['https://site.example:99999/', 'malformed URL'],
    ['javascript:alert(1)', 'scheme'],
  ])('throws UnsafeUrlError for the Location %j', (location, reason) => {
    let caught: unknown;
    try {
      resolveRedirectTarget(current, location, base);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UnsafeUrlError);
    expect((caught as UnsafeUrlError).reason).toBe(reason);
  });
});
