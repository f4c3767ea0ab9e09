import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import type { JsonSchema } from '../../../lib/tools/json-schema';
import { NativeTool } from '../../../lib/tools/native-tool';
import { prepareToolArgs, validateToolArgs } from '../../../lib/tools/validation/validate-tool-args';

function withBranches(keyword: 'anyOf' | 'oneOf', branches: JsonSchema[]): JsonSchema {
  return { type: 'object', properties: { v: { [keyword]: branches } } };
}

describe('compileSchemaCheck (through validateToolArgs)', () => {
  describe('anyOf', () => {
    it('prefers the branch that accepts a scalar unchanged over one that coerces it', () => {
      expect(
        validateToolArgs({ v: '2' }, withBranches('anyOf', [{ type: 'integer' }, { type: 'string' }])),
      ).toEqual({ v: '2' });
      expect(
        validateToolArgs({ v: '2' }, withBranches('anyOf', [{ type: 'string' }, { type: 'integer' }])),
      ).toEqual({ v: '2' });
    });

    it('coerces when no branch accepts the value unchanged', () => {
      expect(
        validateToolArgs({ v: '2' }, withBranches('anyOf', [{ type: 'boolean' }, { type: 'integer' }])),
      ).toEqual({ v: 2 });
    });

    it('takes the first branch that accepts an object', () => {
      const branches: JsonSchema[] = [
        { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: true },
        { type: 'object', properties: { a: { type: 'string' } } },
      ];
      expect(validateToolArgs({ v: { a: '1' } }, withBranches('anyOf', branches))).toEqual({ v: { a: 1 } });
    });
  });

  describe('oneOf', () => {
    it('accepts a scalar that exactly one branch takes unchanged, even if another could coerce it', () => {
      expect(
        validateToolArgs({ v: '2' }, withBranches('oneOf', [{ type: 'integer' }, { type: 'string' }])),
      ).toEqual({ v: '2' });
      expect(
        validateToolArgs({ v: 2 }, withBranches('oneOf', [{ type: 'integer' }, { type: 'string' }])),
      ).toEqual({ v: 2 });
    });

    it('coerces when exactly one branch accepts the coerced value', () => {
      expect(
        validateToolArgs(
          { v: '2' },
          withBranches('oneOf', [{ type: 'integer' }, { type: 'boolean', const: true }]),
        ),
      ).toEqual({ v: 2 });
    });

    it('rejects a value that several branches take unchanged', () => {
      expect(() =>
        validateToolArgs({ v: 2 }, withBranches('oneOf', [{ type: 'integer' }, { type: 'number' }])),
      ).toThrow('Invalid arguments: v: must match exactly one allowed schema, matched 2');
    });

    it('rejects a value that several branches take only by coercion', () => {
      expect(() =>
        validateToolArgs({ v: '1' }, withBranches('oneOf', [{ type: 'integer' }, { type: 'boolean' }])),
      ).toThrow('Invalid arguments: v: must match exactly one allowed schema, matched 2');
    });
  });

  describe('a cycle that consumes no input', () => {
    const loopMessage = (cycle: string): string =>
      `The schema loops back on itself without descending into the value (${cycle}), so checking any value would never end. ` +
      'A $ref reached only through allOf, anyOf, oneOf, not, if/then/else or dependentSchemas applies the schema to the same value again; ' +
      'put the recursion under properties, items or additionalProperties, or remove that $ref.';

    it.each<[string, JsonSchema, string]>([
      ['allOf', { type: 'object', allOf: [{ $ref: '#' }] }, '# → #/allOf/0 → #'],
      ['anyOf', { type: 'object', anyOf: [{ $ref: '#' }] }, '# → #/anyOf/0 → #'],
      ['oneOf', { type: 'object', oneOf: [{ type: 'object' }, { $ref: '#' }] }, '# → #/oneOf/1 → #'],
      ['not', { type: 'object', not: { $ref: '#' } }, '# → #/not → #'],
      ['if/then', { type: 'object', if: { type: 'object' }, then: { $ref: '#' } }, '# → #/then → #'],
      [
        'dependentSchemas',
        { type: 'object', dependentSchemas: { a: { $ref: '#' } } },
        '# → #/dependentSchemas/a → #',
      ],
      [
        'a definition',
        {
          type: 'object',
          properties: { v: { $ref: '#/$defs/v' } },
          $defs: { v: { anyOf: [{ type: 'string' }, { allOf: [{ $ref: '#/$defs/v' }] }] } },
        },
        '#/$defs/v → #/$defs/v/anyOf/1 → #/$defs/v/anyOf/1/allOf/0 → #/$defs/v',
      ],
    ])(
      'refuses one through %s with a ToolDefinitionError naming the cycle, before any call',
      (_label, schema, cycle) => {
        const error = catchError(() => validateToolArgs({}, schema));
        expect(error).toBeInstanceOf(ToolDefinitionError);
        expect((error as Error).message).toBe(loopMessage(cycle));
        expect(catchError(() => validateToolArgs({}, schema, { untrusted: true }))).toEqual(error);
      },
    );

    it('names the tool when it is given', () => {
      const error = catchError(() =>
        prepareToolArgs({ type: 'object', allOf: [{ $ref: '#' }] }, { toolName: 'loop' }),
      );
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as ToolDefinitionError).toolName).toBe('loop');
      expect((error as Error).message).toBe(
        `Tool 'loop' has an input schema that cannot be used: ${loopMessage('# → #/allOf/0 → #')}`,
      );
    });

    it.each([
      ['normalized', false],
      ['kept as given', true],
    ])('makes a NativeTool whose input schema is %s refuse it at construction', (_label, preserveSchema) => {
      const error = catchError(
        () =>
          new NativeTool({
            name: 'loop',
            description: 'Loops',
            func: (args: Record<string, unknown>) => args,
            inputSchema: { type: 'object', properties: { a: { type: 'string' } }, allOf: [{ $ref: '#' }] },
            preserveSchema,
          }),
      );
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as Error).message).toBe(
        `Tool 'loop' has an input schema that cannot be used: ${loopMessage('# → #/allOf/0 → #')}`,
      );
    });

    it('keeps a recursive tree schema, whose cycle descends into the value, working', () => {
      const tree: JsonSchema = {
        type: 'object',
        properties: {
          n: { type: 'integer' },
          children: { type: 'array', items: { allOf: [{ $ref: '#' }] } },
          next: { anyOf: [{ type: 'null' }, { $ref: '#' }] },
        },
      };
      expect(
        validateToolArgs({ n: '1', children: [{ n: '2', next: { n: '3' } }], next: null }, tree),
      ).toEqual({ n: 1, children: [{ n: 2, next: { n: 3 } }], next: null });
      expect(() => validateToolArgs({ children: [{ next: { n: 'x' } }] }, tree)).toThrow(
        'children.0.next.n must be an integer, got the string "x"',
      );
    });
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
