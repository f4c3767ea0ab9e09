import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { compileMcpUriTemplate } from '../../lib/resources/match-mcp-uri-template';

describe('compileMcpUriTemplate', () => {
  it.each([
    ['file:///logs/{day}.txt', 'file:///logs/monday.txt', true],
    ['file:///logs/{day}.txt', 'file:///logs/mon/day.txt', false],
    ['file:///logs/{day}.txt', 'file:///logs/a,b.txt', false],
    ['file:///logs/{day*}', 'file:///logs/a,b', true],
    ['repo://{+path}', 'repo://src/lib/a.ts', true],
    ['repo://x{/segment}', 'repo://x/one', true],
    ['repo://x{/segment}', 'repo://x', false],
    ['repo://report{.format}', 'repo://report.pdf', true],
    ['search://q{?term,limit}', 'search://q?term=a&limit=5', true],
    ['search://q{?term,limit}', 'search://q?term=a', false],
    ['search://q{?term}{&page}', 'search://q?term=a&page=2', true],
    // Literal text is literal: a dot or a bracket in the template matches only itself.
    ['memo://a.b/[{id}]', 'memo://a.b/[7]', true],
    ['memo://a.b/[{id}]', 'memo://aXb/[7]', false],
    ['memo://fixed', 'memo://fixed', true],
    ['memo://fixed', 'memo://fixed/more', false],
  ])('%s matches %s: %s', (template, uri, expected) => {
    expect(compileMcpUriTemplate(template).matches(uri)).toBe(expected);
  });

  describe('values that are not what their expression says', () => {
    const notes = compileMcpUriTemplate('notes://{folder}/{id}');

    it('does not match a {x} value that decodes to a path (the traversal of the docs example)', () => {
      expect(notes.match('notes://..%2F..%2Fetc/..%2F..%2Fpasswd')).toBeUndefined();
      expect(notes.matches('notes://..%2F..%2Fetc/..%2F..%2Fpasswd')).toBe(false);
      expect(notes.refusalOf('notes://..%2F..%2Fetc/..%2F..%2Fpasswd')).toEqual({
        variable: 'folder',
        expression: '{folder}',
        value: '../../etc',
        problem: "contains '/'",
      });
    });

    it.each([
      ['notes://inbox/%00', 'id', 'contains a control character', '\u0000'],
      ['notes://inbox/a%0Ab', 'id', 'contains a control character', 'a\nb'],
      ['notes://inbox/a%7Fb', 'id', 'contains a control character', 'a\u007fb'],
      ['notes://inbox/a%C2%85b', 'id', 'contains a control character', 'a\u0085b'],
      ['notes://..%5C..%5Cwin/1', 'folder', "contains '\\'", '..\\..\\win'],
      ['notes://a%2Cb/1', 'folder', "contains ','", 'a,b'],
      ['notes://%2E%2E/1', 'folder', "is '..'", '..'],
      ['notes://../1', 'folder', "is '..'", '..'],
      ['notes://./1', 'folder', "is '.'", '.'],
      ['notes://inbox/%E0%A4%A', 'id', 'is not valid percent-encoding', '%E0%A4%A'],
      ['notes://inbox/%C0%AE%C0%AE', 'id', 'is not valid percent-encoding', '%C0%AE%C0%AE'],
    ])('does not match %s: its %s %s', (uri, variable, problem, value) => {
      expect(notes.match(uri)).toBeUndefined();
      expect(notes.refusalOf(uri)).toEqual({ variable, expression: `{${variable}}`, value, problem });
    });

    it('still decodes values that are one segment, dots and spaces included', () => {
      expect({ ...notes.match('notes://my%20notes/a.b..c') }).toEqual({ folder: 'my notes', id: 'a.b..c' });
      expect({ ...notes.match('notes://%C3%A9t%C3%A9/...') }).toEqual({ folder: 'été', id: '...' });
      expect(notes.refusalOf('notes://inbox/1')).toBeUndefined();
      expect(notes.refusalOf('other://inbox/1')).toBeUndefined();
    });

    it('checks {/x} and {.x} values like {x}', () => {
      const path = compileMcpUriTemplate('repo://x{/segment}{.ext}');
      expect({ ...path.match('repo://x/one.gz') }).toEqual({ segment: 'one', ext: 'gz' });
      expect(path.refusalOf('repo://x/..%2Fetc.txt')).toEqual({
        variable: 'segment',
        expression: '{/segment}',
        value: '../etc',
        problem: "contains '/'",
      });
      expect(path.refusalOf('repo://x/one.%2F')).toMatchObject({ variable: 'ext', problem: "contains '/'" });
      expect(path.refusalOf('repo://x/%2E%2E.txt')).toMatchObject({
        variable: 'segment',
        problem: "is '..'",
      });
    });

    it('checks each item of an exploded {x*} list', () => {
      const list = compileMcpUriTemplate('file:///logs/{day*}');
      expect({ ...list.match('file:///logs/mon,tue') }).toEqual({ day: 'mon,tue' });
      expect(list.refusalOf('file:///logs/mon,..')).toMatchObject({ variable: 'day', problem: "is '..'" });
      expect(list.refusalOf('file:///logs/mon,a%2Cb')).toMatchObject({ problem: "contains ','" });
      expect(list.refusalOf('file:///logs/mon,%2E')).toMatchObject({ problem: "is '.'" });
    });

    it('lets a {?x}/{&x} value hold / and dots, not control characters', () => {
      const search = compileMcpUriTemplate('search://q{?term}{&path}');
      expect({ ...search.match('search://q?term=a%2Fb&path=..%2F..') }).toEqual({
        term: 'a/b',
        path: '../..',
      });
      expect(search.refusalOf('search://q?term=a%00&path=x')).toEqual({
        variable: 'term',
        expression: '{?term}',
        value: 'a\u0000',
        problem: 'contains a control character',
      });
      expect(search.refusalOf('search://q?term=a&path=%ZZ')).toMatchObject({
        variable: 'path',
        problem: 'is not valid percent-encoding',
      });
    });

    it('passes {+x} and {#x} values on decoded, for the method to check', () => {
      expect({ ...compileMcpUriTemplate('repo://{+path}').match('repo://..%2F../etc%00') }).toEqual({
        path: '../../etc\u0000',
      });
      expect({ ...compileMcpUriTemplate('repo://page{#part}').match('repo://page../x') }).toEqual({
        part: '../x',
      });
    });
  });

  it('matches in linear time a template that would backtrack polynomially in a backtracking engine', () => {
    const hostile = compileMcpUriTemplate(`x${'{+a}'.repeat(12)}y`);
    // A backtracking engine tries about n^12 splits of this URI before failing; RE2 answers at once.
    expect(hostile.matches(`x${'a'.repeat(20_000)}z`)).toBe(false);
    expect(hostile.matches(`x${'a'.repeat(20)}y`)).toBe(true);
  }, 5_000);

  it.each([
    ['memo://{id', "The URI template has an unclosed '{'."],
    ['memo://id}', "The URI template has a '}' without its '{'."],
    ['memo://{}', "The URI template has an empty expression '{}'."],
    ['memo://{?,}', "The URI template has an empty expression '{?,}'."],
    [`memo://${'{a}/'.repeat(65)}`, 'The URI template has more than 64 expressions.'],
    [`memo://${'a'.repeat(4_100)}`, 'The URI template of 4107 characters is longer than 4096.'],
  ])('refuses %s with a ToolDefinitionError', (template, message) => {
    expect(() => compileMcpUriTemplate(template)).toThrow(ToolDefinitionError);
    expect(() => compileMcpUriTemplate(template)).toThrow(message);
  });
});
