import type { BaseTool } from '../../../lib/tools/base-tool';
import { hasObjectOutputSchema, toMcpTool } from '../../../lib/mcp/wire/to-mcp-tool';
import { NativeTool } from '../../../lib/tools/native-tool';
import { IsInt, IsString, Min } from 'class-validator';

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

  it('advertises number, integer, boolean and array output schemas wrapped as { result }', () => {
    for (const schema of [
      { type: 'number' },
      { type: 'integer', minimum: 0 },
      { type: 'boolean' },
      { type: 'array', items: { type: 'string' } },
    ]) {
      expect(toMcpTool(tool({ outputSchema: schema })).outputSchema).toEqual({
        type: 'object',
        properties: { result: schema },
        required: ['result'],
      });
    }
    expect(toMcpTool(tool({ outputSchema: { type: ['number', 'null'] } })).outputSchema).toBeUndefined();
  });

  it('keeps the definitions of a wrapped array schema at the root, where its references point', () => {
    const outputSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      items: { $ref: '#/$defs/Line' },
      $defs: { Line: { type: 'object', properties: { sku: { type: 'string' } } } },
    };
    expect(toMcpTool(tool({ outputSchema })).outputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { result: { type: 'array', items: { $ref: '#/$defs/Line' } } },
      required: ['result'],
      $defs: { Line: { type: 'object', properties: { sku: { type: 'string' } } } },
    });
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

  describe('schemas as declared', () => {
    const RAW_2020_12 = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
          required: ['city'],
        },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      required: ['name'],
      additionalProperties: false,
    };

    it('lists a NativeTool defined with a raw 2020-12 JSON Schema exactly as given', () => {
      const given = structuredClone(RAW_2020_12);
      const native = new NativeTool({
        name: 'ship',
        description: 'Ships a parcel',
        inputSchema: given,
        func: (args: Record<string, unknown>) => args,
      });
      const listed = toMcpTool(native);
      expect(listed.inputSchema).toEqual(RAW_2020_12);
      expect(Object.keys(listed.inputSchema)).toEqual(Object.keys(RAW_2020_12));
      // A later change to the caller's object does not change what is advertised.
      (given.properties as Record<string, unknown>).injected = { type: 'string' };
      expect(toMcpTool(native).inputSchema).toEqual(RAW_2020_12);
    });

    it('still validates calls against the declared schema ($ref resolved, additionalProperties enforced)', async () => {
      const native = new NativeTool({
        name: 'ship',
        description: 'Ships a parcel',
        inputSchema: RAW_2020_12,
        func: (args: Record<string, unknown>) => args,
      });
      await expect(native.call({ name: 'a', address: { city: 'Oslo' } })).resolves.toEqual({
        name: 'a',
        address: { city: 'Oslo' },
      });
      await expect(native.call({ name: 'a', address: {} })).rejects.toThrow(/city/);
      await expect(native.call({ name: 'a', extra: 1 })).rejects.toThrow(/extra/);
    });

    it('lists DTO-derived schemas as before (no declared schema kept)', () => {
      class Parcel {
        @IsString()
        name!: string;

        @IsInt()
        @Min(1)
        weight!: number;
      }
      const native = new NativeTool({
        name: 'weigh',
        description: 'Weighs a parcel',
        inputSchema: Parcel,
        func: (args: Record<string, unknown>) => args,
      });
      expect(native.declaredInputSchema).toBeNull();
      const listed = toMcpTool(native);
      expect(listed.inputSchema).toBe(native.inputSchema);
      expect(listed.inputSchema).toMatchObject({
        type: 'object',
        properties: { name: { type: 'string' }, weight: { type: 'integer', minimum: 1 } },
      });
      expect(listed.inputSchema).not.toHaveProperty('$schema');
    });
  });
});
