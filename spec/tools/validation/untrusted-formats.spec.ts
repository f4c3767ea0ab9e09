import { fastFormats } from 'ajv-formats/dist/formats';
import { compileAjvSchemaCheck } from '../../../lib/tools/validation/ajv-schema-check';
import { getFormatCheck } from '../../../lib/tools/validation/format-checks';
import { getUntrustedFormats } from '../../../lib/tools/validation/untrusted-formats';
import { validateToolArgs } from '../../../lib/tools/validation/validate-tool-args';

const SAMPLES = [
  '',
  'a',
  'P',
  'PT',
  'PT1H',
  'P1Y2M3DT4H5M6S',
  'P3W',
  'P1DT',
  'PT1H2',
  '2024-02-29',
  '2024-13-01',
  '12:30:00Z',
  '23:59:60+01:00',
  '12:30:00.5+0100',
  '2024-01-01T12:00:00z',
  '2024-01-01 12:00:00',
  'http://example.com',
  'https://user:pass@example.com:8080/path?q=1#f',
  'ftp://10.0.0.1/file',
  'http://127.0.0.1',
  'http://169.254.1.1',
  'http://169.25.1.1',
  'http://192.168.0.1',
  'http://192.169.0.1',
  'http://172.16.0.1',
  'http://172.32.0.1',
  'http://172.160.0.1',
  'http://100.1.2.3',
  'http://8.8.8.8',
  'http://1.2.3.255',
  'http://224.1.1.1',
  'http://a@10.0.0.1',
  'http://x@10.0.0.1@8.8.8.8',
  'http://exämple.com',
  'http://example',
  'http://ex ample.com',
  'mailto:a@b.c',
  '//host/path',
  '#frag',
  'a\\b',
  '/x/{id}',
  '{+path}/x{?q,r*}',
  '{bad',
  'user@example.com',
  'user.name+tag@sub.example.co',
  '@example.com',
  'example.com',
  'example.com.',
  'a'.repeat(63) + '.com',
  `${'a.'.repeat(126)}a`,
  `${'a.'.repeat(127)}`,
  `${'a.'.repeat(127)}a`,
  '-bad.com',
  '192.168.1.1',
  '256.1.1.1',
  '::1',
  '2001:db8::8a2e:370:7334',
  '1::2::3',
  'urn:uuid:123e4567-e89b-12d3-a456-426614174000',
  '123E4567-E89B-12D3-A456-426614174000',
  '/a~0b/c~1d',
  '/a~2',
  '#/a%20b',
  '0#',
  '1/a/b',
  'aGVsbG8=',
];

describe('getUntrustedFormats', () => {
  const formats = getUntrustedFormats();

  it('covers every string format of ajv-formats', () => {
    expect(Object.keys(formats).sort()).toEqual(
      Object.keys(fastFormats)
        .filter((name) => name !== 'password' && name !== 'binary')
        .sort(),
    );
  });

  it.each(Object.keys(formats))('%s accepts exactly what the native definition accepts', (name) => {
    const native = getFormatCheck(name) as (value: string) => boolean;
    const linear = formats[name];
    const differences = SAMPLES.filter((value) => native(value) !== linear(value));
    expect(differences).toEqual([]);
  });

  it.each([
    ['url', `ftp://a:${':'.repeat(10_000)}!`],
    ['url', `http://${'a'.repeat(10_000)}@`],
    ['email', `${'a'.repeat(10_000)}@`],
    ['hostname', `${'a-'.repeat(5_000)}!`],
    ['uri-reference', `${'/'.repeat(10_000)} `],
    ['json-pointer', `${'/~0'.repeat(3_000)}~`],
  ])(
    'checks %s on a hostile 10,000-character value (finishes; the native url takes half a second)',
    (format, value) => {
      const schema = { type: 'object', properties: { v: { type: 'string', format } } };
      expect(() => validateToolArgs({ v: value }, schema, { untrusted: true })).toThrow(
        `v: must be a valid ${format}`,
      );
      expect(compileAjvSchemaCheck(schema, true)({ v: value })?.message).toBe(
        `must match format "${format}"`,
      );
    },
  );

  it('checks url linearly for trusted schemas too (the value is untrusted whoever wrote the schema)', () => {
    const schema = { type: 'object', properties: { v: { type: 'string', format: 'url' } } };
    const value = `ftp://a:${':'.repeat(40_000)}!`;
    expect(() => validateToolArgs({ v: value }, schema)).toThrow('v: must be a valid url');
    expect(compileAjvSchemaCheck(schema, false)({ v: value })?.message).toBe('must match format "url"');
    expect(validateToolArgs({ v: 'https://example.com/a' }, schema)).toEqual({ v: 'https://example.com/a' });
  });

  it('keeps ajv-formats for trusted schemas and ignores unknown formats', () => {
    expect(getFormatCheck('url')?.('http://8.8.8.8')).toBe(true);
    expect(getFormatCheck('no-such-format', true)).toBeNull();
    expect(getFormatCheck('toString', true)).toBeNull();
    expect(getFormatCheck('toString')).toBeNull();
  });
});
