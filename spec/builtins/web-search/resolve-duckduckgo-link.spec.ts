import { resolveDuckDuckGoLink } from '../../../lib/builtins/web-search/resolve-duckduckgo-link';

const redirect = (target: string, extra = '&rut=abc') =>
  `//duckduckgo.com/l/?uddg=${encodeURIComponent(target)}${extra}`;

describe('resolveDuckDuckGoLink', () => {
  describe('resolveDuckDuckGoLink()', () => {
    it('decodes an organic redirect link locally', () => {
      expect(resolveDuckDuckGoLink(redirect('https://www.bbc.com/weather/1642911'), false)).toBe(
        'https://www.bbc.com/weather/1642911',
      );
    });

    it.each(['https://www.duckduckgo.com', 'https://html.duckduckgo.com', ''])(
      'decodes redirects on %s and relative ones',
      (origin) => {
        expect(
          resolveDuckDuckGoLink(`${origin}/l/?kh=-1&uddg=${encodeURIComponent('https://a.example/')}`, false),
        ).toBe('https://a.example/');
      },
    );

    it('validates the decoded target', () => {
      expect(resolveDuckDuckGoLink(redirect('javascript:alert(1)'), false)).toBeNull();
      expect(resolveDuckDuckGoLink(redirect('https://u:p@example.com/'), false)).toBeNull();
      expect(resolveDuckDuckGoLink(redirect('https://example.com/a b'), false)).toBeNull();
    });

    it('drops a redirect without exactly one uddg parameter', () => {
      expect(resolveDuckDuckGoLink('//duckduckgo.com/l/?rut=abc', false)).toBeNull();
      expect(
        resolveDuckDuckGoLink(
          redirect('https://one.example/', `&uddg=${encodeURIComponent('https://two.example/')}`),
          false,
        ),
      ).toBeNull();
    });

    it('keeps a sponsored click URL intact (only validated)', () => {
      const href = redirect('https://duckduckgo.com/y.js?ad_domain=kayak.sg');
      expect(resolveDuckDuckGoLink(href, true)).toBe(`https:${href}`);
    });

    it('keeps a direct link', () => {
      expect(resolveDuckDuckGoLink(' https://github.com/cloudwego/eino ', false)).toBe(
        'https://github.com/cloudwego/eino',
      );
    });

    it.each(['/settings', 'feedback.html', '?q=more', '[', '../l/x'])(
      'drops the relative non-redirect link %s',
      (href) => {
        expect(resolveDuckDuckGoLink(href, false)).toBeNull();
        expect(resolveDuckDuckGoLink(href, true)).toBeNull();
      },
    );

    it('drops links with forbidden characters before resolving them', () => {
      expect(resolveDuckDuckGoLink('https:\\\\evil.example\\', false)).toBeNull();
      expect(resolveDuckDuckGoLink('https://exa\nmple.com/', false)).toBeNull();
      expect(resolveDuckDuckGoLink('', false)).toBeNull();
    });
  });
});
