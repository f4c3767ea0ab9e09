import { findInPlaceCycle } from '../../../lib/tools/validation/find-in-place-cycle';

describe('findInPlaceCycle', () => {
  describe('finds a cycle that consumes no input', () => {
    it.each([
      ['allOf', { type: 'object', allOf: [{ $ref: '#' }] }, ['#', '#/allOf/0', '#']],
      ['anyOf', { anyOf: [{ type: 'string' }, { $ref: '#' }] }, ['#', '#/anyOf/1', '#']],
      ['oneOf', { oneOf: [{ $ref: '#' }] }, ['#', '#/oneOf/0', '#']],
      ['not', { type: 'object', not: { $ref: '#' } }, ['#', '#/not', '#']],
      ['if', { if: { $ref: '#' }, then: true }, ['#', '#/if', '#']],
      ['then', { if: true, then: { $ref: '#' } }, ['#', '#/then', '#']],
      ['else', { if: false, else: { allOf: [{ $ref: '#' }] } }, ['#', '#/else', '#/else/allOf/0', '#']],
      ['dependentSchemas', { dependentSchemas: { a: { $ref: '#' } } }, ['#', '#/dependentSchemas/a', '#']],
      ['dependencies', { dependencies: { a: ['b'], c: { $ref: '#' } } }, ['#', '#/dependencies/c', '#']],
      ['a bare $ref to the root', { $ref: '#' }, ['#', '#']],
      ['$recursiveRef', { anyOf: [{ $recursiveRef: '#' }] }, ['#', '#/anyOf/0', '#']],
    ])('through %s', (_label, schema, cycle) => {
      expect(findInPlaceCycle(schema)).toEqual(cycle);
    });

    it('through definitions reached from a property', () => {
      const schema = {
        type: 'object',
        properties: { node: { $ref: '#/$defs/a' } },
        $defs: {
          a: { anyOf: [{ type: 'null' }, { $ref: '#/$defs/b' }] },
          b: { allOf: [{ $ref: '#/$defs/a' }] },
        },
      };
      expect(findInPlaceCycle(schema)).toEqual([
        '#/$defs/a',
        '#/$defs/a/anyOf/1',
        '#/$defs/b',
        '#/$defs/b/allOf/0',
        '#/$defs/a',
      ]);
    });

    it('through a $ref chain in a circle', () => {
      const schema = { $ref: '#/$defs/a', $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } } };
      expect(findInPlaceCycle(schema)).toEqual(['#/$defs/a', '#/$defs/b', '#/$defs/a']);
    });

    it('through a schema object nested in itself (no $ref at all)', () => {
      const schema: Record<string, unknown> = { type: 'object' };
      schema.allOf = [{ anyOf: [schema] }];
      expect(findInPlaceCycle(schema)).toEqual(['#', '#/allOf/0', '#']);
    });

    it('through a definition whose name needs escaping in a pointer', () => {
      const schema = { $defs: { 'a/b~c': { not: { $ref: '#/$defs/a~1b~0c' } } }, $ref: '#/$defs/a~1b~0c' };
      expect(findInPlaceCycle(schema)).toEqual(['#/$defs/a~1b~0c', '#/$defs/a~1b~0c/not', '#/$defs/a~1b~0c']);
    });
  });

  describe('finds no cycle', () => {
    it.each([
      ['a recursive tree under properties', { type: 'object', properties: { child: { $ref: '#' } } }],
      [
        'a recursive list under items',
        { type: 'array', items: { anyOf: [{ type: 'integer' }, { $ref: '#' }] } },
      ],
      [
        'recursion under additionalProperties',
        { type: 'object', additionalProperties: { allOf: [{ $ref: '#' }] } },
      ],
      ['recursion under patternProperties', { patternProperties: { '^x': { $ref: '#' } } }],
      ['recursion under prefixItems', { prefixItems: [{ not: { $ref: '#' } }] }],
      ['recursion under contains', { contains: { $ref: '#' } }],
      [
        'a reference to a sibling definition',
        { allOf: [{ $ref: '#/$defs/a' }], $defs: { a: { type: 'string' } } },
      ],
      [
        'the same definition reached twice',
        { anyOf: [{ $ref: '#/$defs/a' }, { $ref: '#/$defs/a' }], $defs: { a: {} } },
      ],
      [
        'a cycle only in unused definitions',
        { type: 'object', $defs: { a: { allOf: [{ $ref: '#/$defs/a' }] } } },
      ],
      [
        'a $ref that resolves to nothing',
        { allOf: [{ $ref: '#/$defs/missing' }, { $ref: 'https://x.example/s' }] },
      ],
      ['a malformed pointer escape', { allOf: [{ $ref: '#/%E0%A4%A' }] }],
      ['a boolean schema', true],
      ['no schema at all', undefined],
    ])('in %s', (_label, schema) => {
      expect(findInPlaceCycle(schema)).toBeNull();
    });

    it('in a schema nested far deeper than the stack could recurse', () => {
      let schema: Record<string, unknown> = { type: 'string' };
      for (let level = 0; level < 20_000; level += 1) schema = { allOf: [schema] };
      expect(findInPlaceCycle(schema)).toBeNull();
    });
  });
});
