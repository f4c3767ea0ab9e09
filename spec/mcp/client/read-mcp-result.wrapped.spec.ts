import { readMcpResult } from '../../../lib/mcp/client/read-mcp-result';

const options = { toolName: 'tool', serverName: 'srv', maxResultChars: 1000 };

describe('readMcpResult', () => {
  describe('a number, boolean or array sent as structuredContent { result }', () => {
    it('gives the value back when the text is its own JSON', () => {
      for (const value of [3, 0, false, [1, { a: 2 }], []]) {
        expect(
          readMcpResult(
            {
              content: [{ type: 'text', text: JSON.stringify(value) }],
              structuredContent: { result: value },
            },
            options,
          ),
        ).toEqual(value);
      }
    });

    it('accepts the JSON text formatted otherwise (another server)', () => {
      expect(
        readMcpResult(
          { content: [{ type: 'text', text: '[1, 2]' }], structuredContent: { result: [1, 2] } },
          options,
        ),
      ).toEqual([1, 2]);
    });

    it('keeps an object whose only key is result when the text is the object itself', () => {
      expect(
        readMcpResult(
          { content: [{ type: 'text', text: '{"result":3}' }], structuredContent: { result: 3 } },
          options,
        ),
      ).toEqual({ result: 3 });
    });

    it('keeps the structured content when the text is no JSON, differs, or there are other keys or parts', () => {
      const cases = [
        { content: [{ type: 'text', text: 'three' }], structuredContent: { result: 3 } },
        { content: [{ type: 'text', text: '4' }], structuredContent: { result: 3 } },
        { content: [{ type: 'text', text: '3' }], structuredContent: { result: 3, unit: 'eur' } },
        { content: [{ type: 'text', text: '"x"' }], structuredContent: { result: 'x' } },
        {
          content: [
            { type: 'text', text: '3' },
            { type: 'text', text: '3' },
          ],
          structuredContent: { result: 3 },
        },
        { content: [], structuredContent: { result: 3 } },
      ];
      for (const result of cases) {
        expect(readMcpResult(result as never, options)).toEqual(result.structuredContent);
      }
    });
  });
});
