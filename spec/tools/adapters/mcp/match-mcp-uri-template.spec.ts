import { ToolDefinitionError } from '../../../../lib/errors/tool-definition-error';
import { compileMcpUriTemplate } from '../../../../lib/tools/adapters/mcp/match-mcp-uri-template';

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
