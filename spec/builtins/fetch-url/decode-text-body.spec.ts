import * as iconv from 'iconv-lite';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { decodeTextBody } from '../../../lib/builtins/fetch-url/decode-text-body';

describe('decodeTextBody', () => {
  it.each([
    ['text/plain', false],
    ['TEXT/HTML; charset=UTF-8', true],
    ['application/xhtml+xml', true],
    ['text/csv', false],
    ['text/markdown', false],
    ['application/json', false],
    ['application/xml', false],
    ['application/rss+xml', false],
    ['application/atom+xml', false],
    ['application/ld+json', false],
    ['image/svg+xml', false],
  ])('accepts %s (html: %s)', (contentType, html) => {
    const decoded = decodeTextBody(contentType, Buffer.from('hi'), 'U');
    expect(decoded).toEqual({ contentType: contentType.split(';')[0].toLowerCase(), html, text: 'hi' });
  });

  it.each([
    ['text/plain; charset="windows-1252"', iconv.encode('€ sign', 'windows-1252'), '€ sign'],
    ["text/plain; charset='latin1'", iconv.encode('à la', 'latin1'), 'à la'],
    ['text/plain; format=flowed; CHARSET=koi8-r', iconv.encode('привет', 'koi8-r'), 'привет'],
    ['text/plain; charset=utf-16be', iconv.encode('wide', 'utf-16be'), 'wide'],
    ['text/plain', Buffer.from('\ufeffbom', 'utf8'), 'bom'],
    ['text/plain; charset=', Buffer.from('empty charset'), 'empty charset'],
  ])('decodes %s', (contentType, body, text) => {
    expect(decodeTextBody(contentType, body, 'U').text).toBe(text);
  });

  it.each([
    [undefined, Buffer.from('x'), 'fetch_url: U sent no Content-Type; only text responses can be read.'],
    ['  ', Buffer.from('x'), 'fetch_url: U sent no Content-Type; only text responses can be read.'],
    [
      'image/gif',
      Buffer.from('x'),
      "fetch_url: U sent 'image/gif', which is not a text content type; only text, HTML, JSON and XML can be read.",
    ],
    [
      'text/',
      Buffer.from('x'),
      "fetch_url: U sent 'text/', which is not a text content type; only text, HTML, JSON and XML can be read.",
    ],
    [
      'text/plain; charset=nope-1',
      Buffer.from('x'),
      "fetch_url: U declares the unknown charset 'nope-1'; it cannot be decoded.",
    ],
    [
      'text/html',
      Buffer.from([0x3c, 0x00, 0x3e]),
      "fetch_url: U is labelled 'text/html' but holds binary data (NUL bytes); it was not decoded.",
    ],
  ])('throws ToolRuntimeError for %j', (contentType, body, message) => {
    expect(() => decodeTextBody(contentType, body, 'U')).toThrow(ToolRuntimeError);
    expect(() => decodeTextBody(contentType, body, 'U')).toThrow(message);
  });

  it.each([
    ['<meta charset="windows-1251"><p>', iconv.encode('привет', 'windows-1251'), 'привет'],
    [
      '<META http-equiv="Content-Type" content="text/html; charset=ISO-8859-2">',
      iconv.encode('żółw', 'iso-8859-2'),
      'żółw',
    ],
    ['<meta charset="x-unknown">', Buffer.from('é', 'utf8'), 'é'],
  ])('decodes HTML without a header charset by its own declaration %s', (meta, encoded, text) => {
    const body = Buffer.concat([Buffer.from(meta, 'latin1'), encoded]);
    expect(decodeTextBody('text/html', body, 'U').text).toBe(`${meta}${text}`);
  });

  it('decodes an HTML body with a UTF-16 byte-order mark and no header charset', () => {
    const body = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('<p>wide</p>', 'utf-16le')]);
    expect(decodeTextBody('text/html', body, 'U').text).toBe('<p>wide</p>');
  });

  it('prefers the header charset over the page declaration', () => {
    const body = Buffer.concat([Buffer.from('<meta charset="windows-1251">'), iconv.encode('é', 'latin1')]);
    expect(decodeTextBody('text/html; charset=latin1', body, 'U').text).toBe(
      '<meta charset="windows-1251">é',
    );
  });
});
