import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { toAnthropicTools } from '../../lib/llm/to-anthropic-tools';
import { dtoTools, recursiveTools, schemaTools, structuralTool } from '../fixtures/llm/llm-tool-corpus';
import { jsonSchemaToolViolations, PROVIDER_NAME_PATTERN } from '../fixtures/llm/provider-rules';

describe('toAnthropicTools', () => {
  describe('declarations', () => {
    it('exports every corpus tool as a valid JSON Schema with an object root', () => {
      const tools = toAnthropicTools([...dtoTools(), ...schemaTools(), ...recursiveTools()]);
      expect(tools).toHaveLength(7);
      for (const tool of tools) {
        expect(Object.keys(tool).sort()).toEqual(['description', 'input_schema', 'name']);
        expect(tool.name).toMatch(PROVIDER_NAME_PATTERN);
        expect({ name: tool.name, problems: jsonSchemaToolViolations(tool.input_schema) }).toEqual({
          name: tool.name,
          problems: [],
        });
      }
    });

    it('keeps optional properties optional and constraints as keywords', () => {
      const [trip] = toAnthropicTools(dtoTools().slice(0, 1));
      expect(trip.input_schema.required).toEqual(['name', 'start', 'waypoints']);
      expect(trip.input_schema.properties!.name).toEqual({ type: 'string', minLength: 2, maxLength: 40 });
    });

    it('turns oneOf into anyOf and keeps recursive references', () => {
      const [filter] = toAnthropicTools(schemaTools());
      expect(filter.input_schema.properties!.shape.anyOf).toHaveLength(2);
      expect(filter.input_schema.properties!.shape.oneOf).toBeUndefined();
      const [tree] = toAnthropicTools(recursiveTools().slice(0, 1));
      expect(tree.input_schema.properties!.children).toEqual({ type: 'array', items: { $ref: '#' } });
    });

    it('gives a tool without a schema an empty object schema and leaves out an empty description', () => {
      const tool = { ...structuralTool('bare'), description: '' };
      expect(toAnthropicTools([tool])).toEqual([
        {
          name: 'bare',
          input_schema: { type: 'object', properties: {}, required: [], additionalProperties: false },
        },
      ]);
    });
  });

  describe('errors', () => {
    it('rejects a root union, which Anthropic refuses at the top level', () => {
      const act = () =>
        toAnthropicTools([
          structuralTool('either', { oneOf: [{ type: 'object' }, { type: 'object' }] } as never),
        ]);
      expect(act).toThrow(ToolDefinitionError);
      expect(act).toThrow(
        "Tool 'either' cannot be exported for Anthropic: # is a union (anyOf/oneOf/allOf) at the root.",
      );
    });

    it('rejects a name longer than 64 characters', () => {
      expect(() => toAnthropicTools([structuralTool(`mcp_server_${'x'.repeat(60)}`)])).toThrow(
        'it is 71 characters long (at most 64)',
      );
    });

    it('rejects two tools with one name', () => {
      expect(() => toAnthropicTools([structuralTool('twin'), structuralTool('twin')])).toThrow(
        "Two tools are named 'twin'; a model needs unique tool names.",
      );
    });
  });
});
