import { ToolInputError } from '../../../lib/errors/tool-input-error';
import {
  ERROR_META_KEY,
  toCallToolErrorResult,
  toCallToolResult,
} from '../../../lib/mcp/wire/to-call-tool-result';

describe('toCallToolResult', () => {
  it('maps null and undefined to no content, strings to text', () => {
    expect(toCallToolResult(null, 't')).toEqual({ content: [] });
    expect(toCallToolResult(undefined, 't')).toEqual({ content: [] });
    expect(toCallToolResult('', 't')).toEqual({ content: [{ type: 'text', text: '' }] });
  });

  it('maps objects (class instances included) to plain structuredContent plus JSON text', () => {
    class Confirmation {
      constructor(
        readonly id: string,
        readonly at: Date,
      ) {}
    }
    const result = toCallToolResult(new Confirmation('BK-1', new Date(0)), 't');
    expect(result.structuredContent).toEqual({ id: 'BK-1', at: '1970-01-01T00:00:00.000Z' });
    expect(Object.getPrototypeOf(result.structuredContent)).toBe(Object.prototype);
    expect(result.content).toEqual([{ type: 'text', text: '{"id":"BK-1","at":"1970-01-01T00:00:00.000Z"}' }]);
  });

  it('maps numbers, booleans and arrays to structuredContent { result } plus their own JSON text', () => {
    expect(toCallToolResult(3, 't')).toEqual({
      content: [{ type: 'text', text: '3' }],
      structuredContent: { result: 3 },
    });
    expect(toCallToolResult(false, 't')).toEqual({
      content: [{ type: 'text', text: 'false' }],
      structuredContent: { result: false },
    });
    expect(toCallToolResult([1, { a: 2 }], 't')).toEqual({
      content: [{ type: 'text', text: '[1,{"a":2}]' }],
      structuredContent: { result: [1, { a: 2 }] },
    });
  });

  it('keeps strings, dates and non-finite numbers as text only (no structured content)', () => {
    expect(toCallToolResult('3', 't')).toEqual({ content: [{ type: 'text', text: '3' }] });
    expect(toCallToolResult(new Date(0), 't')).toEqual({
      content: [{ type: 'text', text: '"1970-01-01T00:00:00.000Z"' }],
    });
    expect(toCallToolResult(Number.NaN, 't')).toEqual({ content: [{ type: 'text', text: 'null' }] });
  });

  it('turns a value that cannot be JSON into an error result', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    for (const [value, kind] of [
      [10n, 'a bigint'],
      [circular, 'a circular or non-JSON structure'],
      [() => 1, 'a function'],
    ] as const) {
      const result = toCallToolResult(value, 'weird');
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([
        { type: 'text', text: `Tool 'weird' returned a value that cannot be sent as JSON (${kind}).` },
      ]);
    }
  });
});

describe('toCallToolErrorResult', () => {
  it("sends a Protolink error's message and JSON, never its cause", () => {
    const error = new ToolInputError('bad city', { toolName: 'book', cause: new Error('secret') });
    expect(toCallToolErrorResult(error, 'book')).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'bad city' }],
      _meta: {
        [ERROR_META_KEY]: {
          name: 'ToolInputError',
          code: 'TOOL_INPUT',
          message: 'bad city',
          toolName: 'book',
        },
      },
    });
  });

  it('hides everything about other errors', () => {
    const result = toCallToolErrorResult(new Error('password=hunter2'), 'login');
    expect(JSON.stringify(result)).not.toMatch(/hunter2|Error: /);
    expect(result.content).toEqual([
      { type: 'text', text: "Tool 'login' failed with an internal error; the server's log has the details." },
    ]);
    expect(toCallToolErrorResult('a string', 'x').isError).toBe(true);
  });
});
