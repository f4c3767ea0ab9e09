import * as iconv from 'iconv-lite';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { decodeProviderBody } from '../../../lib/builtins/web-search/decode-provider-body';

describe('decodeProviderBody', () => {
  describe('decodeProviderBody()', () => {
    it('decodes UTF-8 JSON and drops a byte-order mark', () => {
      const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"é"}')]);
      expect(
        decodeProviderBody(
          { headers: { 'Content-Type': 'application/json; charset=utf-8' }, body },
          'brave',
          'json',
        ),
      ).toBe('{"a":"é"}');
    });

    it('accepts +json media types and HTML for DuckDuckGo', () => {
      expect(
        decodeProviderBody(
          { headers: { 'content-type': 'application/problem+json' }, body: Buffer.from('{}') },
          'wikipedia',
          'json',
        ),
      ).toBe('{}');
      expect(
        decodeProviderBody(
          { headers: { 'content-type': 'text/html' }, body: Buffer.from('<p>') },
          'duckduckgo',
          'html',
        ),
      ).toBe('<p>');
    });

    it('decodes a declared legacy charset', () => {
      const body = iconv.encode('<p>Zürich €</p>', 'windows-1252');
      expect(
        decodeProviderBody(
          { headers: { 'content-type': 'text/html; charset="windows-1252"' }, body },
          'duckduckgo',
          'html',
        ),
      ).toBe('<p>Zürich €</p>');
    });

    it('rejects an unexpected content type naming the provider', () => {
      const call = () =>
        decodeProviderBody(
          { headers: { 'content-type': 'text/html' }, body: Buffer.from('<html>') },
          'wikipedia',
          'json',
        );
      expect(call).toThrow(ToolRuntimeError);
      expect(call).toThrow(
        "web_search (engine 'wikipedia', Wikipedia): expected a JSON response but got content type 'text/html'. The provider may be down or its API may have changed; try again later or use another engine.",
      );
    });

    it('rejects a missing content type', () => {
      expect(() => decodeProviderBody({ headers: {}, body: Buffer.from('x') }, 'duckduckgo', 'html')).toThrow(
        "web_search (engine 'duckduckgo', DuckDuckGo): expected an HTML response but got content type 'none'.",
      );
    });

    it('rejects an unknown charset', () => {
      let caught: unknown;
      try {
        decodeProviderBody(
          { headers: { 'content-type': 'application/json; charset=x-klingon' }, body: Buffer.from('{}') },
          'brave',
          'json',
        );
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ToolRuntimeError);
      expect((caught as ToolRuntimeError).provider).toBe('brave');
      expect((caught as Error).message).toBe(
        "web_search (engine 'brave', Brave Search): the response declares an unknown charset 'x-klingon' and cannot be decoded.",
      );
    });
  });
});
