import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { assertToolName, normalizeCapabilities, TOOL_NAME_PATTERN } from '../../lib/tools/tool-name';

describe('TOOL_NAME_PATTERN', () => {
  it('matches 1–64 characters of [A-Za-z0-9_-] only', () => {
    expect(TOOL_NAME_PATTERN.test('a')).toBe(true);
    expect(TOOL_NAME_PATTERN.test('x'.repeat(64))).toBe(true);
    expect(TOOL_NAME_PATTERN.test('x'.repeat(65))).toBe(false);
    expect(TOOL_NAME_PATTERN.test('a\n')).toBe(false);
  });
});

describe('assertToolName', () => {
  it('accepts a valid name', () => {
    expect(() => assertToolName('get_weather-2')).not.toThrow();
  });

  it('names the place, the problem and the fix', () => {
    expect(() => assertToolName('a.b', 'The MCP tool')).toThrow(ToolDefinitionError);
    expect(() => assertToolName('a.b', 'The MCP tool')).toThrow(
      'The MCP tool has the invalid name "a.b": it contains characters other than letters, digits, _ and -. Use 1–64 characters of [A-Za-z0-9_-] (e.g. "book_hotel") so every model provider accepts it.',
    );
  });

  it('shortens a very long name in the message', () => {
    expect(() => assertToolName('y'.repeat(200))).toThrow(
      `A tool has the invalid name "${'y'.repeat(80)}…": it is 200 characters long (at most 64).`,
    );
  });

  it.each<[unknown, string]>([
    [undefined, 'A tool has the invalid name undefined: it is not a string.'],
    [null, 'A tool has the invalid name null: it is not a string.'],
    [7, 'A tool has the invalid name 7: it is not a string.'],
  ])('rejects %j', (name, message) => {
    expect(() => assertToolName(name)).toThrow(message);
  });
});

describe('normalizeCapabilities', () => {
  it('keeps names lower-cased in first-occurrence order, without empties or duplicates, frozen', () => {
    const result = normalizeCapabilities(['b', '', 'a', 'B', 'a']);
    expect(result).toEqual(['b', 'a']);
    expect(Object.isFrozen(result)).toBe(true);
  });

  it('takes any iterable of names, a Set or a generator, read once in order', () => {
    expect(normalizeCapabilities(new Set(['B', 'a', 'b']))).toEqual(['b', 'a']);
    const names = (function* () {
      yield 'x.y';
      yield 'x.y';
      yield 'z';
    })();
    expect(normalizeCapabilities(names)).toEqual(['x.y', 'z']);
  });

  it('turns null and undefined into an empty frozen list', () => {
    expect(normalizeCapabilities(null)).toEqual([]);
    expect(Object.isFrozen(normalizeCapabilities(undefined))).toBe(true);
  });

  it('throws ToolDefinitionError for a bare string, a non-list or an item that is not a capability name', () => {
    expect(() => normalizeCapabilities('records.write' as never)).toThrow(ToolDefinitionError);
    expect(() => normalizeCapabilities('records.write' as never)).toThrow(
      "capabilities must be a list, not the bare string 'records.write' (it would be read letter by letter); pass capabilities: ['records.write'].",
    );
    expect(() => normalizeCapabilities({} as never)).toThrow('not an object');
    expect(() => normalizeCapabilities([' x'])).toThrow("capability ' x' is not a capability name");
  });
});
