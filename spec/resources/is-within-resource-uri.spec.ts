import { isWithinResourceUri } from '../../lib/resources/is-within-resource-uri';

describe('isWithinResourceUri', () => {
  it.each([
    ['file:///docs/readme.md', 'file:///docs/readme.md'],
    ['file:///docs', 'file:///docs/a.md'],
    ['file:///docs/', 'file:///docs/a.md'],
    ['file:///docs', 'file:///docs/sub/b.md'],
    ['memo://mixed', 'memo://mixed/a'],
    ['memo://host', 'memo://host/x?version=2'],
    ['memo://notes', 'memo://notes/a%20b'],
    ['memo://notes/1?view=raw', 'memo://notes/1?view=raw'],
  ])('accepts %s holding %s', (readUri, itemUri) => {
    expect(isWithinResourceUri(readUri, itemUri)).toBe(true);
  });

  it.each([
    ['another URI', 'memo://notes/1', 'file:///etc/shadow'],
    ['a mere string prefix', 'memo://prefix', 'memo://prefix-other'],
    ['the parent', 'file:///docs/a.md', 'file:///docs'],
    ['a dot-dot segment', 'file:///docs', 'file:///docs/../etc/shadow'],
    ['a dot segment', 'file:///docs', 'file:///docs/./a.md'],
    ['an encoded dot-dot segment', 'memo://escape', 'memo://escape/%2E%2E/%2e%2e/etc/shadow'],
    ['an encoded slash', 'memo://notes', 'memo://notes/a%2F..%2F..%2Fetc'],
    ['a backslash', 'file:///docs', 'file:///docs/..\\etc'],
    ['an encoded backslash', 'file:///docs', 'file:///docs/%5C..%5Cetc'],
    ['a control character', 'memo://notes', 'memo://notes/a%00b'],
    ['a raw control character', 'memo://notes', 'memo://notes/a\nb'],
    ['bad percent-encoding', 'memo://notes', 'memo://notes/%E0%A4%A'],
    ['a child of a URI with a query', 'memo://notes?all', 'memo://notes?all/x'],
    ['a child of a URI with a fragment', 'memo://notes#top', 'memo://notes#top/x'],
    ['the base with a slash only', 'memo://notes', 'memo://notes/'],
  ])('refuses %s', (_label, readUri, itemUri) => {
    expect(isWithinResourceUri(readUri, itemUri)).toBe(false);
  });
});
