import { ToolInputError } from '../../lib/errors/tool-input-error';
import { ToolResult } from '../../lib/tools/tool-result';
import type { ToolContentPart } from '../../lib/tools/tool-result';
import { ToolResult as RootToolResult } from '../../lib/index';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_BASE64 = PNG.toString('base64');

function inputError(run: () => unknown): ToolInputError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolInputError);
    return error as ToolInputError;
  }
  throw new Error('expected a ToolInputError');
}

describe('ToolResult', () => {
  it('is exported from the root entry', () => {
    expect(RootToolResult).toBe(ToolResult);
  });

  describe('text', () => {
    it('returns one frozen text part', () => {
      const result = ToolResult.text('hello');
      expect(result.content).toEqual([{ type: 'text', text: 'hello' }]);
      expect(result.structuredContent).toBeUndefined();
      expect(Object.isFrozen(result)).toBe(true);
      expect(Object.isFrozen(result.content)).toBe(true);
      expect(Object.isFrozen(result.content[0])).toBe(true);
    });

    it('rejects a non-string', () => {
      expect(inputError(() => ToolResult.text(42 as never)).message).toContain(
        'ToolResult.text must be a string',
      );
    });
  });

  describe('image', () => {
    it('encodes bytes as base64 and keeps base64 text as is', () => {
      expect(ToolResult.image(PNG, 'image/png').content).toEqual([
        { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
      ]);
      expect(ToolResult.image(PNG_BASE64, 'image/png').content[0]).toEqual({
        type: 'image',
        data: PNG_BASE64,
        mimeType: 'image/png',
      });
    });

    it('encodes only the viewed bytes of a subarray', () => {
      const view = new Uint8Array([0, 1, 2, 3, 4]).subarray(1, 3);
      expect(ToolResult.image(view, 'image/gif').content[0]).toMatchObject({ data: 'AQI=' });
    });

    it('rejects text that is not base64, with how to fix it', () => {
      const error = inputError(() => ToolResult.image('not base64!', 'image/png'));
      expect(error.message).toContain("ToolResult.image: 'data' is not base64");
      expect(error.message).toContain("Buffer.from(bytes).toString('base64')");
      expect(inputError(() => ToolResult.image('abc', 'image/png')).message).toContain('is not base64');
      expect(
        inputError(() => ToolResult.image(`data:image/png;base64,${PNG_BASE64}`, 'image/png')).message,
      ).toContain('no whitespace or data: prefix');
    });

    it('rejects empty data', () => {
      expect(inputError(() => ToolResult.image('', 'image/png')).message).toContain("received empty 'data'");
      expect(inputError(() => ToolResult.image(new Uint8Array(0), 'image/png')).message).toContain(
        "received empty 'data'",
      );
      expect(inputError(() => ToolResult.image(42 as never, 'image/png')).message).toContain(
        "'data' must be a Uint8Array or base64 text; got a number",
      );
    });

    it('rejects a MIME type of another family or a malformed one', () => {
      expect(inputError(() => ToolResult.image(PNG, 'audio/wav')).message).toBe(
        "ToolResult.image received mimeType 'audio/wav', which is not image/*; give an image/* type, or send other data with ToolResult.resource({ uri, mimeType, blob }).",
      );
      expect(inputError(() => ToolResult.image(PNG, 'png')).message).toBe(
        "ToolResult.image received 'png' as mimeType; give a MIME type such as 'image/png'.",
      );
      expect(inputError(() => ToolResult.image(PNG, undefined as never)).message).toContain(
        'received undefined',
      );
    });
  });

  describe('audio', () => {
    it('returns one audio part', () => {
      expect(ToolResult.audio(PNG, 'audio/wav').content).toEqual([
        { type: 'audio', data: PNG_BASE64, mimeType: 'audio/wav' },
      ]);
    });

    it('rejects an image MIME type', () => {
      expect(inputError(() => ToolResult.audio(PNG, 'image/png')).message).toContain('which is not audio/*');
    });
  });

  describe('resource', () => {
    it('returns a text or a blob resource', () => {
      expect(ToolResult.resource({ uri: 'memo://1', text: 'note', mimeType: 'text/plain' }).content).toEqual([
        { type: 'resource', resource: { uri: 'memo://1', mimeType: 'text/plain', text: 'note' } },
      ]);
      expect(ToolResult.resource({ uri: 'file:///a.pdf', blob: PNG }).content).toEqual([
        { type: 'resource', resource: { uri: 'file:///a.pdf', blob: PNG_BASE64 } },
      ]);
    });

    it('rejects both or neither of text and blob', () => {
      expect(inputError(() => ToolResult.resource({ uri: 'memo://1', text: 'a', blob: PNG })).message).toBe(
        "ToolResult.resource for 'memo://1' needs exactly one of 'text' (a text resource) or 'blob' (bytes or base64); it got both.",
      );
      expect(inputError(() => ToolResult.resource({ uri: 'memo://1' })).message).toContain('it got neither');
    });

    it('rejects a missing or scheme-less uri, a bad blob, bad text and a bad MIME type', () => {
      expect(inputError(() => ToolResult.resource({ text: 'a' } as never)).message).toBe(
        "ToolResult.resource needs a 'uri' with a scheme (e.g. 'file:///report.pdf' or 'memo://42'); got undefined.",
      );
      expect(inputError(() => ToolResult.resource({ uri: 'report.pdf', text: 'a' })).message).toContain(
        "got 'report.pdf'",
      );
      expect(inputError(() => ToolResult.resource({ uri: 'memo://1', blob: '%%' })).message).toContain(
        "'blob' is not base64",
      );
      expect(inputError(() => ToolResult.resource({ uri: 'memo://1', text: 5 as never })).message).toContain(
        "'text' must be a string",
      );
      expect(
        inputError(() => ToolResult.resource({ uri: 'memo://1', text: 'a', mimeType: 'x' })).message,
      ).toContain("such as 'application/pdf'");
      expect(inputError(() => ToolResult.resource(null as never)).message).toContain('got null');
    });
  });

  describe('resourceLink', () => {
    it('returns a link with its optional fields', () => {
      expect(
        ToolResult.resourceLink({
          uri: 'file:///r.txt',
          name: 'r.txt',
          title: 'Report',
          description: 'The report',
          mimeType: 'text/plain',
          size: 12,
        }).content,
      ).toEqual([
        {
          type: 'resource_link',
          uri: 'file:///r.txt',
          name: 'r.txt',
          title: 'Report',
          description: 'The report',
          mimeType: 'text/plain',
          size: 12,
        },
      ]);
      expect(ToolResult.resourceLink({ uri: 'memo://1', name: 'one' }).content[0]).toEqual({
        type: 'resource_link',
        uri: 'memo://1',
        name: 'one',
      });
    });

    it('rejects a missing uri or name and bad optional fields', () => {
      expect(inputError(() => ToolResult.resourceLink({ name: 'x' } as never)).message).toContain(
        "needs a 'uri'",
      );
      expect(inputError(() => ToolResult.resourceLink({ uri: 'memo://1' } as never)).message).toBe(
        "ToolResult.resourceLink for 'memo://1' needs a non-empty 'name' (e.g. the file name).",
      );
      expect(
        inputError(() => ToolResult.resourceLink({ uri: 'memo://1', name: 'a', size: -1 })).message,
      ).toContain("'size' must be a whole number of bytes");
      expect(
        inputError(() => ToolResult.resourceLink({ uri: 'memo://1', name: 'a', title: 3 as never })).message,
      ).toContain("'title' must be a string");
      expect(
        inputError(() => ToolResult.resourceLink({ uri: 'memo://1', name: 'a', mimeType: '' })).message,
      ).toContain('as mimeType');
      expect(inputError(() => ToolResult.resourceLink(undefined as never)).message).toContain(
        'got undefined',
      );
    });
  });

  describe('of', () => {
    it('concatenates results, parts and strings in order', () => {
      const part: ToolContentPart = { type: 'audio', data: PNG_BASE64, mimeType: 'audio/mpeg' };
      const result = ToolResult.of('intro', ToolResult.image(PNG, 'image/png'), part, {
        type: 'resource_link',
        uri: 'memo://1',
        name: 'one',
      });
      expect(result.content.map((item) => item.type)).toEqual(['text', 'image', 'audio', 'resource_link']);
      expect(ToolResult.of().content).toEqual([]);
    });

    it('checks raw parts like the helpers do', () => {
      expect(
        inputError(() => ToolResult.of({ type: 'image', data: '!!', mimeType: 'image/png' })).message,
      ).toContain('is not base64');
      expect(inputError(() => ToolResult.of({ type: 'video' } as never)).message).toBe(
        `ToolResult.of argument 0 has an unknown content type "video"; use 'text', 'image', 'audio', 'resource' or 'resource_link'.`,
      );
      expect(inputError(() => ToolResult.of('a', 7 as never)).message).toContain(
        'ToolResult.of argument 1 must be',
      );
      expect(inputError(() => ToolResult.of({ type: 'text' } as never)).message).toContain(
        "a text part needs { type: 'text', text: string }",
      );
      expect(
        inputError(() => ToolResult.of({ type: 'image', mimeType: 'image/png' } as never)).message,
      ).toContain("an image part needs base64 text in 'data'");
      expect(inputError(() => ToolResult.of({ type: 'resource' } as never)).message).toContain(
        'a resource part needs',
      );
      expect(
        ToolResult.of({ type: 'resource', resource: { uri: 'memo://1', text: 'x' } }).content[0],
      ).toEqual({ type: 'resource', resource: { uri: 'memo://1', text: 'x' } });
    });

    it('keeps the one structuredContent and rejects two', () => {
      const structured = ToolResult.text('a').withStructuredContent({ n: 1 });
      expect(ToolResult.of(structured, 'b').structuredContent).toEqual({ n: 1 });
      expect(inputError(() => ToolResult.of(structured, structured)).message).toContain(
        'two results with structuredContent',
      );
    });
  });

  describe('withStructuredContent', () => {
    it('returns a frozen copy and leaves the original alone', () => {
      const value = { total: 3, items: [{ id: 1 }] };
      const base = ToolResult.text('3 items');
      const result = base.withStructuredContent(value);
      expect(base.structuredContent).toBeUndefined();
      expect(result.structuredContent).toEqual(value);
      expect(result.structuredContent).not.toBe(value);
      expect(Object.isFrozen(result.structuredContent)).toBe(true);
      expect(Object.isFrozen((result.structuredContent as { items: object[] }).items[0])).toBe(true);
      expect(result.content).toEqual(base.content);
    });

    it('rejects a non-plain or non-JSON value', () => {
      const base = ToolResult.text('x');
      expect(inputError(() => base.withStructuredContent([1] as never)).message).toBe(
        'withStructuredContent needs a plain object (e.g. { total: 3 }); got an array. Convert class instances, arrays and primitives to a plain object first.',
      );
      expect(inputError(() => base.withStructuredContent(new Date() as never)).message).toContain(
        'got an instance of Date',
      );
      expect(inputError(() => base.withStructuredContent('x' as never)).message).toContain("got 'x'");
      expect(inputError(() => base.withStructuredContent({ n: 1n })).message).toContain(
        'cannot be sent as JSON',
      );
      expect(
        base.withStructuredContent(Object.create(null) as Record<string, unknown>).structuredContent,
      ).toEqual({});
    });
  });

  describe('isToolResult', () => {
    it('recognizes instances, including from another copy of the package', () => {
      expect(ToolResult.isToolResult(ToolResult.text('x'))).toBe(true);
      const foreign = { content: [] };
      Object.defineProperty(foreign, Symbol.for('protolink:tool-result'), { value: true });
      expect(ToolResult.isToolResult(foreign)).toBe(true);
    });

    it('rejects look-alikes', () => {
      expect(ToolResult.isToolResult({ content: [{ type: 'text', text: 'x' }] })).toBe(false);
      expect(ToolResult.isToolResult(null)).toBe(false);
      expect(ToolResult.isToolResult('x')).toBe(false);
      const branded = {};
      Object.defineProperty(branded, Symbol.for('protolink:tool-result'), { value: true });
      expect(ToolResult.isToolResult(branded)).toBe(false);
    });
  });

  describe('toJSON', () => {
    it('returns mutable copies in the MCP shape', () => {
      const result = ToolResult.of('a', ToolResult.image(PNG, 'image/png')).withStructuredContent({
        ok: true,
      });
      const json = result.toJSON();
      expect(json).toEqual({
        content: [
          { type: 'text', text: 'a' },
          { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
        ],
        structuredContent: { ok: true },
      });
      json.content.push({ type: 'text', text: 'b' });
      expect(result.content).toHaveLength(2);
      expect(JSON.parse(JSON.stringify(ToolResult.text('z')))).toEqual({
        content: [{ type: 'text', text: 'z' }],
      });
    });
  });
});
