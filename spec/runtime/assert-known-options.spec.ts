import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { assertKnownOptions, defineKnownOptions } from '../../lib/runtime/assert-known-options';

interface WidgetOptions {
  description?: string;
  inputSchema?: object;
  tags?: string[];
  maxSessions?: number;
}

const WIDGET_OPTIONS = defineKnownOptions<WidgetOptions>(
  'new Widget()',
  { description: true, inputSchema: true, tags: true, maxSessions: true },
  { args: 'pass inputSchema instead' },
);

function messageOf(options: object, subject?: { where?: string; toolName?: string }): string {
  try {
    assertKnownOptions(options, WIDGET_OPTIONS, subject);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return (error as Error).message;
  }
  throw new ToolDefinitionError('no error was thrown');
}

describe('defineKnownOptions', () => {
  it('lists the names in the order given, frozen', () => {
    expect(WIDGET_OPTIONS.names).toEqual(['description', 'inputSchema', 'tags', 'maxSessions']);
    expect(Object.isFrozen(WIDGET_OPTIONS.names)).toBe(true);
    expect(Object.isFrozen(WIDGET_OPTIONS.advice)).toBe(true);
  });
});

describe('assertKnownOptions', () => {
  it('accepts every known option, set or undefined, and an empty object', () => {
    expect(() =>
      assertKnownOptions(
        { description: 'x', inputSchema: {}, tags: [], maxSessions: undefined },
        WIDGET_OPTIONS,
      ),
    ).not.toThrow();
    expect(() => assertKnownOptions({}, WIDGET_OPTIONS)).not.toThrow();
  });

  it('ignores inherited and symbol keys', () => {
    const options = Object.create({ inherited: true }) as Record<PropertyKey, unknown>;
    options[Symbol('marker')] = 1;
    expect(() => assertKnownOptions(options, WIDGET_OPTIONS)).not.toThrow();
  });

  it('names an unknown option, says to remove it, and lists the known ones', () => {
    expect(messageOf({ colour: 'red' })).toBe(
      "new Widget() option 'colour' is not known; remove it (an option that is not known would be ignored). " +
        'Known options: description, inputSchema, tags, maxSessions.',
    );
  });

  it('refuses an unknown option even when it is undefined', () => {
    expect(messageOf({ colour: undefined })).toContain("option 'colour' is not known");
  });

  it('gives the advice of a known legacy name', () => {
    expect(messageOf({ args: { a: 'int' } })).toBe(
      "new Widget() option 'args' is not known: pass inputSchema instead. Known options: description, inputSchema, tags, maxSessions.",
    );
  });

  it("names the camelCase option for the original's snake_case one", () => {
    expect(messageOf({ input_schema: {} })).toContain(
      "option 'input_schema' is not known: it is the original's snake_case spelling; options are camelCase, use 'inputSchema' instead.",
    );
    expect(messageOf({ max_sessions: 3 })).toContain("use 'maxSessions' instead");
  });

  it.each([
    ['descripton', 'description'],
    ['desciption', 'description'],
    ['tag', 'tags'],
    ['inputschema', 'inputSchema'],
    ['InputSchema', 'inputSchema'],
    ['maxSesions', 'maxSessions'],
    ['tgas', 'tags'],
  ])('suggests a close spelling: %s → %s', (typo, meant) => {
    expect(messageOf({ [typo]: 1 })).toContain(`option '${typo}' is not known; did you mean '${meant}'?`);
  });

  it('suggests nothing for a name more than two edits away, or a key as short as the edits', () => {
    expect(messageOf({ descr: 'x' })).not.toContain('did you mean');
    expect(messageOf({ ta: 'x' })).not.toContain('did you mean');
  });

  it('lists the other unknown options after the first', () => {
    expect(messageOf({ tags: [], colour: 1, size: 2, shape: 3 })).toContain(
      "option 'colour' is not known; remove it (an option that is not known would be ignored). Also not known: 'size', 'shape'.",
    );
  });

  it('starts with the subject and keeps the tool name when given', () => {
    let caught: unknown;
    try {
      assertKnownOptions({ args: {} }, WIDGET_OPTIONS, { where: "new Widget({ name: 'w' })", toolName: 'w' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ToolDefinitionError);
    expect((caught as ToolDefinitionError).message).toMatch(/^new Widget\(\{ name: 'w' \}\) option 'args'/);
    expect((caught as ToolDefinitionError).toolName).toBe('w');
  });
});
