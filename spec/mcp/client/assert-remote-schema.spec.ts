import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { assertRemoteSchema } from '../../../lib/mcp/client/assert-remote-schema';

const limits = { maxChars: 10_000, maxDepth: 16 };
const where = 'MCP tool "t" on server \'s\'';

describe('assertRemoteSchema', () => {
  it('accepts ordinary and recursive schemas', () => {
    expect(() =>
      assertRemoteSchema({ type: 'object', properties: { a: { type: 'string' } } }, limits, where),
    ).not.toThrow();
    const tree = { type: 'object', properties: { children: { type: 'array', items: { $ref: '#' } } } };
    expect(() => assertRemoteSchema(tree, limits, where)).not.toThrow();
    const alternatives = {
      type: 'object',
      properties: { next: { anyOf: [{ type: 'null' }, { allOf: [{ $ref: '#' }] }] } },
    };
    expect(() => assertRemoteSchema(alternatives, limits, where)).not.toThrow();
  });

  describe('a cycle that consumes no input', () => {
    const loops = (kind: string, cycle: string): string =>
      `${where} has an ${kind} schema that loops back on itself without descending into the value (${cycle}), so checking any value would never end; the server must put the recursion under properties or items.`;

    it.each([
      ['allOf', { type: 'object', allOf: [{ $ref: '#' }] }, '# → #/allOf/0 → #'],
      ['anyOf', { type: 'object', anyOf: [{ type: 'object' }, { $ref: '#' }] }, '# → #/anyOf/1 → #'],
      ['not', { type: 'object', not: { $ref: '#' } }, '# → #/not → #'],
      ['else', { type: 'object', if: { required: ['a'] }, else: { $ref: '#' } }, '# → #/else → #'],
      [
        'a definition',
        {
          type: 'object',
          properties: { v: { $ref: '#/$defs/v' } },
          $defs: { v: { oneOf: [{ type: 'string' }, { $ref: '#/$defs/v' }] } },
        },
        '#/$defs/v → #/$defs/v/oneOf/1 → #/$defs/v',
      ],
    ])(
      'rejects an input schema with one through %s, naming the tool and the cycle',
      (_label, schema, cycle) => {
        const error = catchError(() => assertRemoteSchema(schema, limits, where));
        expect(error).toBeInstanceOf(ToolDefinitionError);
        expect((error as Error).message).toBe(loops('input', cycle));
      },
    );

    it('rejects an output schema with one', () => {
      const error = catchError(() =>
        assertRemoteSchema({ type: 'object', allOf: [{ $ref: '#' }] }, limits, where, 'output'),
      );
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as Error).message).toBe(loops('output', '# → #/allOf/0 → #'));
    });
  });

  it.each([
    ['not an object', [], `${where} has an input schema that is not a JSON object.`],
    [
      'too large',
      { type: 'object', description: 'x'.repeat(20_000) },
      `${where} has an input schema of 20034 characters (at most 10000).`,
    ],
    [
      'too deep',
      JSON.parse(`${'{"a":'.repeat(20)}1${'}'.repeat(20)}`),
      `${where} has an input schema nested deeper than 16 levels.`,
    ],
    [
      'a $ref cycle',
      {
        properties: { x: { $ref: '#/$defs/a' } },
        $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } },
      },
      `${where} has an input schema whose $ref '#/$defs/a' points only at itself through other $refs.`,
    ],
    [
      'a remote $ref',
      { properties: { x: { $ref: 'https://evil.example/schema' } } },
      `${where} has an input schema with the unresolvable $ref 'https://evil.example/schema' (only local refs are supported).`,
    ],
  ])('rejects a schema that is %s', (_label, schema, message) => {
    expect(() => assertRemoteSchema(schema, limits, where)).toThrow(new ToolDefinitionError(message));
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
