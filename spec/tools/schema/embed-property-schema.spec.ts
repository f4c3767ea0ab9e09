import 'reflect-metadata';
import { embedPropertySchema } from '../../../lib/tools/schema/embed-property-schema';
import type { JsonSchema } from '../../../lib/tools/json-schema';
import { Param } from '../../../lib/tools/decorators/param.decorator';
import { Tool } from '../../../lib/tools/decorators/tool.decorator';
import { scanTools } from '../../../lib/tools/registry/scan-tools';
import { TreeNode } from '../../fixtures/dto/booking.dto';

describe('embedPropertySchema', () => {
  it('returns a schema without references unchanged (a copy)', () => {
    const schema: JsonSchema = { type: 'object', properties: { a: { type: 'string' } } };
    const definitions: Record<string, JsonSchema> = {};
    const embedded = embedPropertySchema(schema, 'Thing', definitions);
    expect(embedded).toEqual(schema);
    expect(embedded).not.toBe(schema);
    expect(definitions).toEqual({});
  });

  it('moves a self-referencing schema under $defs and points the property at it', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { children: { type: 'array', items: { $ref: '#' } } },
    };
    const definitions: Record<string, JsonSchema> = {};
    expect(embedPropertySchema(schema, 'Tree', definitions)).toEqual({ $ref: '#/$defs/Tree' });
    expect(definitions).toEqual({
      Tree: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/Tree' } } } },
    });
    expect(schema.properties!.children.items).toEqual({ $ref: '#' });
  });

  it('hoists nested $defs, renaming one that clashes with a different definition', () => {
    const definitions: Record<string, JsonSchema> = { Node: { type: 'string' } };
    const schema: JsonSchema = {
      type: 'object',
      properties: { next: { $ref: '#/$defs/Node' } },
      $defs: {
        Node: { type: 'object', properties: { back: { $ref: '#/$defs/Node' }, root: { $ref: '#' } } },
      },
    };
    expect(embedPropertySchema(schema, 'Graph', definitions)).toEqual({ $ref: '#/$defs/Graph' });
    expect(definitions.Node).toEqual({ type: 'string' });
    expect(definitions.Node_2).toEqual({
      type: 'object',
      properties: { back: { $ref: '#/$defs/Node_2' }, root: { $ref: '#/$defs/Graph' } },
    });
    expect(definitions.Graph).toEqual({ type: 'object', properties: { next: { $ref: '#/$defs/Node_2' } } });
  });
});

describe('scanTools with a recursive DTO parameter', () => {
  class Gardener {
    @Tool({ name: 'plant_tree', description: 'Plant a tree' })
    plant(@Param('tree') tree: TreeNode): string {
      const count = (node: TreeNode): number =>
        1 + (node.children ?? []).reduce((sum, child) => sum + count(child), 0);
      return `${tree instanceof TreeNode}:${count(tree)}`;
    }
  }

  it('keeps the recursion pointing at the DTO, not at the tool arguments', async () => {
    const [tool] = scanTools(new Gardener());
    expect(tool.inputSchema.properties!.tree.properties!.children.items).toEqual({
      $ref: '#/$defs/TreeNode',
    });
    expect(tool.inputSchema.$defs!.TreeNode).toMatchObject({ type: 'object', required: ['label'] });
    expect(
      await tool.call({ tree: { label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }] } }),
    ).toBe('true:3');
    await expect(tool.call({ tree: { label: 'a', children: [{ children: [] }] } })).rejects.toThrow(
      /tree\.children\.0\.label: is required/,
    );
  });
});
