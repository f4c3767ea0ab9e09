import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { readMcpResult } from '../../../lib/mcp/client/read-mcp-result';

const options = { toolName: 'tool', serverName: 'srv', maxResultChars: 20 };

describe('readMcpResult', () => {
  it('prefers structured content, then the first text item, then null for text-only results', () => {
    expect(
      readMcpResult({ content: [{ type: 'text', text: '{}' }], structuredContent: { a: 1 } }, options),
    ).toEqual({ a: 1 });
    expect(
      readMcpResult(
        {
          content: [
            { type: 'text', text: 'first' },
            { type: 'text', text: 'second' },
          ],
        },
        options,
      ),
    ).toBe('first');
    expect(readMcpResult({ content: [] }, options)).toBeNull();
    expect(readMcpResult({} as never, options)).toBeNull();
  });

  it('cuts long text with a marker', () => {
    expect(readMcpResult({ content: [{ type: 'text', text: 'y'.repeat(25) }] }, options)).toBe(
      `${'y'.repeat(20)}… [cut: 5 more characters]`,
    );
  });

  it('rejects isError results with the server text', () => {
    expect(() =>
      readMcpResult(
        {
          isError: true,
          content: [
            { type: 'text', text: 'no' },
            { type: 'text', text: 'really' },
          ],
        },
        options,
      ),
    ).toThrow(new ToolRuntimeError("MCP tool 'tool' on server 'srv' returned an error: no\nreally"));
    expect(() => readMcpResult({ isError: true, content: [] }, options)).toThrow(
      "MCP tool 'tool' on server 'srv' returned an error: no error text was given",
    );
  });

  it('rejects structured content larger than the cap', () => {
    expect(() =>
      readMcpResult({ content: [], structuredContent: { text: 'z'.repeat(50) } }, options),
    ).toThrow(
      new ToolRuntimeError(
        "MCP tool 'tool' on server 'srv' returned 61 characters of structured content (at most 20); raise maxResultChars to accept it.",
      ),
    );
  });
});
