import { cleanSearchText, truncateText } from '../../../lib/builtins/web-search/clean-search-text';

describe('cleanSearchText', () => {
  describe('cleanSearchText()', () => {
    it('collapses whitespace runs, including non-breaking spaces, and trims', () => {
      expect(cleanSearchText('  a \n\t b\u00a0\u00a0c  ', 100)).toBe('a b c');
    });

    it('replaces control characters and lone surrogates', () => {
      expect(cleanSearchText('a\u0000b\u0007c\u200bd\ud800e', 100)).toBe('a b c d\ufffde');
    });

    it('cuts to the limit', () => {
      expect(cleanSearchText('abcdef', 3)).toBe('abc');
    });
  });

  describe('truncateText()', () => {
    it('never splits a surrogate pair', () => {
      expect(truncateText('ab😀', 3)).toBe('ab');
    });

    it('trims the end after cutting', () => {
      expect(truncateText('ab   cd', 4)).toBe('ab');
    });

    it('keeps short text as is', () => {
      expect(truncateText('abc', 3)).toBe('abc');
    });
  });
});
