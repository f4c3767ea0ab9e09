import { normalizeResultUrl } from '../../../lib/builtins/web-search/normalize-result-url';

describe('normalizeResultUrl', () => {
  describe('normalizeResultUrl()', () => {
    it.each([
      ['https://Example.COM./a?b=1#frag', 'https://example.com/a?b=1'],
      ['https://example.com', 'https://example.com/'],
      ['http://example.com:8080/x', 'http://example.com:8080/x'],
      ['https://[2001:DB8::1]:8443/p', 'https://[2001:db8::1]:8443/p'],
      ['https://bücher.example/ä', 'https://xn--bcher-kva.example/%C3%A4'],
      ['https://example.com/?a[]=1', 'https://example.com/?a%5B%5D=1'],
      ['https://example.com/100%', 'https://example.com/100%25'],
      ['https://example.com/%41', 'https://example.com/%41'],
      ['https://example.com../x', 'https://example.com/x'],
    ])('normalizes %s', (raw, expected) => {
      expect(normalizeResultUrl(raw)).toBe(expected);
    });

    it.each([
      ['a javascript: URL', 'javascript:alert(1)'],
      ['an ftp URL', 'ftp://example.com/'],
      ['a data URL', 'data:text/html,hi'],
      ['credentials', 'https://user:pass@example.com/'],
      ['a user name only', 'https://user@example.com/'],
      ['a space', 'https://example.com/a b'],
      ['a newline', 'https://example.com/a\nb'],
      ['a tab', 'https://exa\tmple.com/'],
      ['a backslash', 'https:\\\\example.com\\'],
      ['a quote', 'https://example.com/"x'],
      ['angle brackets', 'https://example.com/<x>'],
      ['a backtick', 'https://example.com/`'],
      ['braces', 'https://example.com/{x}'],
      ['a pipe', 'https://example.com/a|b'],
      ['a caret', 'https://example.com/a^b'],
      ['a relative path', '/relative/path'],
      ['an empty host', 'https:///path'],
      ['a host made of dots', 'https://./'],
      ['an empty string', ''],
      ['2049 characters', `https://example.com/${'a'.repeat(2029)}`],
    ])('drops %s', (_label, raw) => {
      expect(normalizeResultUrl(raw)).toBeNull();
    });

    it('accepts exactly 2048 characters', () => {
      const raw = `https://example.com/${'a'.repeat(2028)}`;
      expect(raw).toHaveLength(2048);
      expect(normalizeResultUrl(raw)).toBe(raw);
    });

    it('drops a value that is not a string', () => {
      expect(normalizeResultUrl(42)).toBeNull();
      expect(normalizeResultUrl(null)).toBeNull();
    });
  });
});
