import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { parseToolArguments } from '../../lib/llm/parse-tool-arguments';
import { toGeminiTools } from '../../lib/llm/to-gemini-tools';
import type { GeminiFunctionDeclaration } from '../../lib/llm/to-gemini-tools';
import { dtoTools, recursiveTools, schemaTools, structuralTool } from '../fixtures/llm/llm-tool-corpus';
import { geminiViolations, PROVIDER_NAME_PATTERN } from '../fixtures/llm/provider-rules';

const declarations = (tools: Parameters<typeof toGeminiTools>[0]): GeminiFunctionDeclaration[] =>
  toGeminiTools(tools)[0].functionDeclarations;
const find = (list: GeminiFunctionDeclaration[], name: string) => list.find((item) => item.name === name)!;

describe('toGeminiTools', () => {
  describe('declarations', () => {
    it('exports every non-recursive corpus tool so that it meets the Gemini schema rules', () => {
      const list = declarations([...dtoTools(), ...schemaTools()]);
      expect(list.map((item) => item.name)).toEqual([
        'plan_trip',
        'search',
        'ping',
        'reserve_room',
        'set_filter',
      ]);
      for (const item of list) {
        expect(item.name).toMatch(PROVIDER_NAME_PATTERN);
        expect({ name: item.name, problems: geminiViolations(item.parameters) }).toEqual({
          name: item.name,
          problems: [],
        });
      }
    });

    it('sends enums as strings, numeric ones with format enum, and moves unsupported formats into the description', () => {
      const trip = find(declarations(dtoTools()), 'plan_trip').parameters!;
      expect(trip.properties!.room).toEqual({ type: 'string', enum: ['single', 'double'] });
      expect(trip.properties!.priority).toEqual({
        type: 'string',
        format: 'enum',
        enum: ['0', '1', '2'],
        description: '(send one of: 0 | 1 | 2)',
      });
      expect(trip.properties!.email).toEqual({ type: 'string', description: '(format: email)' });
      expect(trip.properties!.departure).toEqual({ type: 'string', format: 'date-time' });
      expect(trip.required).toEqual(['name', 'start', 'waypoints']);
      expect(trip.additionalProperties).toBeUndefined();
      expect(trip.title).toBeUndefined();
    });

    it('turns type arrays and null options into nullable, const into enum and oneOf into anyOf', () => {
      const filter = find(declarations(schemaTools()), 'set_filter').parameters!;
      expect(filter.properties!.label).toEqual({
        type: 'string',
        nullable: true,
        description: 'A label or null to clear it',
      });
      expect(filter.properties!.mode).toEqual({ type: 'string', enum: ['replace'] });
      expect(filter.properties!.limit).toEqual({ type: 'integer', minimum: 1, nullable: true });
      expect(filter.properties!.shape.anyOf![0]).toEqual({
        type: 'object',
        properties: {
          kind: { type: 'string', enum: ['circle'] },
          radius: { type: 'number', description: '(exclusiveMinimum: 0)' },
        },
        required: ['kind', 'radius'],
      });
      expect(filter.properties!.tags).toEqual({
        type: 'array',
        items: { type: 'string', minLength: 1 },
        description: '(uniqueItems: true)',
      });
    });

    it('inlines a DTO parameter of a decorated tool', () => {
      expect(find(declarations(dtoTools()), 'reserve_room').parameters).toEqual({
        type: 'object',
        properties: {
          request: {
            type: 'object',
            properties: {
              city: { type: 'string' },
              guests: { type: 'integer', minimum: 1 },
              notes: { type: 'string' },
            },
            required: ['city', 'guests'],
          },
        },
        required: ['request'],
      });
    });

    it('omits parameters for a tool without any', () => {
      expect(find(declarations(dtoTools()), 'ping')).toEqual({
        name: 'ping',
        description: 'Check the service (no parameters)',
      });
    });

    it('returns no tool entry for an empty tool list', () => {
      expect(toGeminiTools([])).toEqual([]);
    });
  });

  describe('arguments coming back', () => {
    it('turns a stringified numeric enum back into the number', () => {
      const trip = dtoTools()[0];
      const args = parseToolArguments(
        { name: 'Alps', start: { lat: 1, lon: 2 }, waypoints: [{ lat: 3, lon: 4 }], priority: '2' },
        trip,
      );
      expect(args.priority).toBe(2);
    });
  });

  describe("{ format: 'parametersJsonSchema' }", () => {
    it('declares JSON Schema parameters, keeping what the OpenAPI form cannot express', () => {
      const [tool] = toGeminiTools(recursiveTools().slice(0, 1), { format: 'parametersJsonSchema' });
      const [declaration] = tool.functionDeclarations;
      expect(declaration.name).toBe('plant_tree');
      expect(declaration).not.toHaveProperty('parameters');
      expect(declaration.parametersJsonSchema.type).toBe('object');
      expect(JSON.stringify(declaration.parametersJsonSchema)).toContain('"$ref"');
    });

    it('gives a tool without arguments an empty object schema, and no entry for no tools', () => {
      const [tool] = toGeminiTools([structuralTool('ping')], { format: 'parametersJsonSchema' });
      expect(tool.functionDeclarations[0].parametersJsonSchema).toMatchObject({
        type: 'object',
        properties: {},
      });
      expect(toGeminiTools([], { format: 'parametersJsonSchema' })).toEqual([]);
    });

    it('still rejects a root that is not an object, naming the tool', () => {
      const act = () =>
        toGeminiTools([structuralTool('listy', { type: 'array', items: { type: 'string' } })], {
          format: 'parametersJsonSchema',
        });
      expect(act).toThrow(ToolDefinitionError);
      expect(act).toThrow(/^Tool 'listy' cannot be exported for Gemini: # has type "array", not "object"/);
    });
  });

  describe('schemas Gemini cannot express', () => {
    it('rejects a recursive DTO with the path of the recursion', () => {
      const act = () => toGeminiTools(recursiveTools().slice(0, 1));
      expect(act).toThrow(ToolDefinitionError);
      expect(act).toThrow(
        "Tool 'plant_tree' cannot be exported for Gemini: #/properties/children/items is recursive (it refers back to #).",
      );
    });

    it('rejects a $defs cycle with the path of the recursion', () => {
      expect(() => toGeminiTools(recursiveTools().slice(1))).toThrow(
        "Tool 'org_chart' cannot be exported for Gemini: #/properties/root/properties/reports/items/properties/reports/items is recursive (it refers back to #/$defs/Employee).",
      );
    });

    it.each([
      [
        'an open map',
        {
          type: 'object',
          properties: { meta: { type: 'object', additionalProperties: { type: 'string' } } },
        },
        '#/properties/meta/additionalProperties makes the object an open map',
      ],
      [
        'an empty nested object',
        { type: 'object', properties: { meta: { type: 'object', properties: {} } } },
        '#/properties/meta is an object with no properties',
      ],
      [
        'a typeless property',
        { type: 'object', properties: { anything: {} } },
        '#/properties/anything accepts any value (it has no type)',
      ],
      [
        'a null-only property',
        { type: 'object', properties: { nothing: { type: 'null' } } },
        '#/properties/nothing only accepts null',
      ],
      [
        'an array without items',
        { type: 'object', properties: { list: { type: 'array' } } },
        '#/properties/list is an array with no item schema',
      ],
      [
        'an enum of objects',
        { type: 'object', properties: { pick: { enum: [{ a: 1 }] } } },
        '#/properties/pick/enum has object or array members',
      ],
      [
        'allOf of two parts',
        { type: 'object', properties: { both: { allOf: [{ type: 'object' }, { type: 'object' }] } } },
        '#/properties/both/allOf combines schemas with allOf',
      ],
      [
        'a tuple',
        { type: 'object', properties: { pair: { type: 'array', items: [{ type: 'string' }] } } },
        '#/properties/pair/items is a tuple',
      ],
      ['a root union', { oneOf: [{ type: 'object' }] }, '# is a union (anyOf/oneOf/allOf) at the root'],
    ])('rejects %s with the tool name and the JSON path', (_label, schema, fragment) => {
      const act = () => toGeminiTools([structuralTool('bad_tool', schema as never)]);
      expect(act).toThrow(ToolDefinitionError);
      expect(act).toThrow(`Tool 'bad_tool' cannot be exported for Gemini: ${fragment}`);
    });

    it('stringifies the default of a numeric enum and drops a null default', () => {
      const tool = structuralTool('levels', {
        type: 'object',
        properties: {
          level: { type: 'integer', enum: [1, 2], default: 1 },
          note: { type: ['string', 'null'], default: null },
        },
      });
      expect(declarations([tool])[0].parameters!.properties).toEqual({
        level: {
          type: 'string',
          format: 'enum',
          enum: ['1', '2'],
          default: '1',
          description: '(send one of: 1 | 2)',
        },
        note: { type: 'string', nullable: true },
      });
    });

    it('drops additionalProperties on an object that declares properties', () => {
      const tool = structuralTool('open_but_declared', {
        type: 'object',
        properties: { q: { type: 'string' } },
        additionalProperties: true,
      });
      expect(declarations([tool])[0].parameters).toEqual({
        type: 'object',
        properties: { q: { type: 'string' } },
      });
    });

    it('rejects a name longer than 64 characters', () => {
      expect(() => toGeminiTools([structuralTool('n'.repeat(70))])).toThrow(
        'A tool exported for Gemini has the invalid name',
      );
    });
  });
});
