import type { BaseTool } from '../../lib/tools/base-tool';
import { hasObjectOutputSchema, toMcpTool } from '../../lib/server/to-mcp-tool';

function tool(overrides: Partial<BaseTool> & { metadata?: unknown }): BaseTool {
  return {
    name: 't',
    description: 'd',
    inputSchema: null,
    outputSchema: null,
    tags: null,
    examples: null,
    capabilities: null,
    call: async () => null,
    ...overrides,
  } as BaseTool;
}

describe('toMcpTool', () => {
  it('gives a tool without an input schema an empty object schema and no output schema', () => {
    expect(toMcpTool(tool({}))).toEqual({ name: 't', description: 'd', inputSchema: { type: 'object' } });
  });

  it('forces the input schema to an object and keeps only object output schemas', () => {
    const mapped = toMcpTool(
      tool({ inputSchema: { properties: { a: { type: 'string' } } }, outputSchema: { type: 'string' } }),
    );
    expect(mapped.inputSchema).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(mapped.outputSchema).toBeUndefined();
    expect(hasObjectOutputSchema(tool({ outputSchema: { title: 'permissive' } }))).toBe(false);
    expect(hasObjectOutputSchema(tool({ outputSchema: { type: 'object', properties: {} } }))).toBe(true);
  });

  it('keeps known annotations of the right type from metadata, and marks read-only tags', () => {
    const mapped = toMcpTool(
      tool({
        metadata: {
          annotations: { title: 'T', readOnlyHint: 'yes', openWorldHint: true, evil: '<IMPORTANT>' },
        },
        tags: ['read-only'],
      }),
    );
    expect(mapped.annotations).toEqual({ title: 'T', openWorldHint: true, readOnlyHint: true });
    expect(
      toMcpTool(tool({ metadata: { annotations: { readOnlyHint: false } }, tags: ['read-only'] }))
        .annotations,
    ).toEqual({ readOnlyHint: false });
  });
});
