import { htmlFragmentToText } from '../../../lib/builtins/web-search/html-fragment-to-text';

describe('htmlFragmentToText', () => {
  describe('htmlFragmentToText()', () => {
    it('drops searchmatch spans without adding spaces', () => {
      expect(htmlFragmentToText('<span class="searchmatch">Jupiter</span>is')).toBe('Jupiteris');
    });

    it('decodes named, decimal and hex entities', () => {
      expect(htmlFragmentToText('Caf&eacute; &amp; &#39;x&#x27; &lt;b&gt; &hellip;')).toBe(
        "Café & 'x' <b> …",
      );
    });

    it('turns br and block elements into spaces', () => {
      expect(htmlFragmentToText('one<br>two<p>three</p>four')).toBe('one two three four');
    });

    it('drops script and style content', () => {
      expect(htmlFragmentToText('a<script>alert(1)</script>b<style>p{}</style>c')).toBe('abc');
    });

    it('returns plain text without markup unchanged', () => {
      expect(htmlFragmentToText('plain text 100%')).toBe('plain text 100%');
    });

    it('returns an empty string for a fragment longer than 8000 characters', () => {
      expect(htmlFragmentToText(`<b>${'x'.repeat(8000)}</b>`)).toBe('');
      expect(htmlFragmentToText('x'.repeat(8000))).toHaveLength(8000);
    });
  });
});
