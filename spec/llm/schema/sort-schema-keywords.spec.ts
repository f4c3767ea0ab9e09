import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { sortSchemaKeywords } from '../../../lib/llm/schema/sort-schema-keywords';
import type { SchemaKeywordRules } from '../../../lib/llm/schema/sort-schema-keywords';

const rules: SchemaKeywordRules = {
  scope: { toolName: 'plan_trip', target: 'Example' },
  kept: new Set(['description', 'enum']),
  handled: new Set(['type', 'properties']),
  openMapFix: 'Declare the properties.',
  tupleFix: 'Use an object.',
};

describe('sortSchemaKeywords', () => {
  describe('sorting', () => {
    it('clones kept keywords, skips handled ones, annotations and extensions, and describes the rest', () => {
      const values = ['a', 'b'];
      const node = {
        type: 'string',
        properties: {},
        description: 'A city',
        enum: values,
        $comment: 'internal',
        'x-order': 1,
        minLength: 2,
        unevaluatedProperties: false,
        patternProperties: {},
      };
      const { result, described } = sortSchemaKeywords(node, '#/properties/city', rules);
      expect(result).toEqual({ description: 'A city', enum: ['a', 'b'] });
      expect(result.enum).not.toBe(values);
      expect(described).toEqual({ minLength: 2 });
    });
  });

  describe('errors', () => {
    it('throws ToolDefinitionError with the open-map fix when patternProperties is not empty', () => {
      const call = () => sortSchemaKeywords({ patternProperties: { '^x': {} } }, '#/properties/tags', rules);
      expect(call).toThrow(ToolDefinitionError);
      expect(call).toThrow(
        "Tool 'plan_trip' cannot be exported for Example: #/properties/tags/patternProperties allows keys by pattern (an open map). Declare the properties.",
      );
    });

    it('throws ToolDefinitionError with the tuple fix when the node has prefixItems', () => {
      const call = () => sortSchemaKeywords({ prefixItems: [{ type: 'string' }] }, '#', rules);
      expect(call).toThrow(ToolDefinitionError);
      expect(call).toThrow(
        "Tool 'plan_trip' cannot be exported for Example: #/prefixItems is a tuple (prefixItems). Use an object.",
      );
    });
  });
});
