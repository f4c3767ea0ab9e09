import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { buildProviderRequest } from '../../../lib/builtins/web-search/provider-request';

describe('buildProviderRequest', () => {
  describe('buildProviderRequest()', () => {
    it('appends the parameters in order and adds the User-Agent', () => {
      const request = buildProviderRequest(
        'wikipedia',
        'https://en.wikipedia.org/w/rest.php/v1/search/page',
        [
          ['q', 'ä b'],
          ['limit', '2'],
        ],
        {},
        'json',
      );
      expect(request.url).toBe('https://en.wikipedia.org/w/rest.php/v1/search/page?q=%C3%A4+b&limit=2');
      expect(request.headers['User-Agent']).toBe(
        'ProtoLink web_search (+https://github.com/nMaroulis/protolink)',
      );
    });

    it('rejects a URL longer than 8192 characters', () => {
      expect(() =>
        buildProviderRequest(
          'duckduckgo',
          'https://html.duckduckgo.com/html/',
          [['q', 'x'.repeat(8200)]],
          {},
          'html',
        ),
      ).toThrow(ToolInputError);
      expect(() =>
        buildProviderRequest(
          'duckduckgo',
          'https://html.duckduckgo.com/html/',
          [['q', 'x'.repeat(8200)]],
          {},
          'html',
        ),
      ).toThrow(
        'web_search: the duckduckgo request URL would have 8236 characters (limit 8192); shorten the query.',
      );
    });

    it('stays far below the limit for the longest allowed query', () => {
      const request = buildProviderRequest(
        'brave',
        'https://api.search.brave.com/res/v1/web/search',
        [['q', '😀'.repeat(400)]],
        {},
        'json',
      );
      expect(request.url.length).toBeLessThan(8192);
    });
  });
});
