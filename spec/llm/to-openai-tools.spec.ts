import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { toOpenAITools } from '../../lib/llm/to-openai-tools';
import type { OpenAIChatTool } from '../../lib/llm/to-openai-tools';
import { dtoTools, recursiveTools, schemaTools, structuralTool } from '../fixtures/llm/llm-tool-corpus';
import {
  jsonSchemaToolViolations,
  openAIStrictViolations,
  PROVIDER_NAME_PATTERN,
} from '../fixtures/llm/provider-rules';

const corpus = () => [...dtoTools(), ...schemaTools(), ...recursiveTools()];
const find = (tools: OpenAIChatTool[], name: string) =>
  tools.find((tool) => tool.function.name === name)!.function;

describe('toOpenAITools', () => {
  describe('strict (default)', () => {
    it('exports every corpus tool so that it meets the strict-mode rules', () => {
      const tools = toOpenAITools(corpus());
      expect(tools.map((tool) => tool.function.name)).toEqual(corpus().map((tool) => tool.name));
      for (const tool of tools) {
        expect(tool.type).toBe('function');
        expect(tool.function.strict).toBe(true);
        expect(tool.function.name).toMatch(PROVIDER_NAME_PATTERN);
        expect({
          name: tool.function.name,
          problems: openAIStrictViolations(tool.function.parameters),
        }).toEqual({ name: tool.function.name, problems: [] });
      }
    });

    it('makes optional properties required and nullable when the canonical schema leaves them out of required', () => {
      const trip = find(toOpenAITools(dtoTools()), 'plan_trip').parameters;
      expect(trip.required).toEqual(Object.keys(trip.properties!));
      expect(trip.properties!.room).toEqual({ type: ['string', 'null'], enum: ['single', 'double', null] });
      expect(trip.properties!.priority).toEqual({ type: ['integer', 'null'], enum: [0, 1, 2, null] });
      expect(trip.properties!.name).toEqual({ type: 'string', description: '(minLength: 2, maxLength: 40)' });
      expect(trip.properties!.website).toEqual({ type: ['string', 'null'], description: '(format: uri)' });
      expect(trip.properties!.waypoints.items).toMatchObject({
        additionalProperties: false,
        required: ['lat', 'lon'],
      });
    });

    it('describes the default of an optional property instead of sending the keyword', () => {
      const search = find(toOpenAITools(dtoTools()), 'search').parameters;
      expect(search.properties!.limit).toEqual({
        type: ['integer', 'null'],
        minimum: 1,
        maximum: 50,
        description: '(default: 10)',
      });
    });

    it('turns oneOf into anyOf, nullable types into type arrays and describes unsupported keywords', () => {
      const filter = find(toOpenAITools(schemaTools()), 'set_filter').parameters;
      expect(filter.properties!.shape.anyOf).toHaveLength(2);
      expect(filter.properties!.shape.anyOf![0]).toEqual({
        type: 'object',
        properties: { kind: { const: 'circle' }, radius: { type: 'number', exclusiveMinimum: 0 } },
        required: ['kind', 'radius'],
        additionalProperties: false,
      });
      expect(filter.properties!.label).toEqual({
        type: ['string', 'null'],
        description: 'A label or null to clear it',
      });
      expect(filter.properties!.mode).toEqual({ anyOf: [{ const: 'replace' }, { type: 'null' }] });
      expect(filter.properties!.limit).toEqual({
        anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }],
      });
      expect(filter.properties!.tags).toEqual({
        type: ['array', 'null'],
        items: { type: 'string', description: '(minLength: 1)' },
        description: '(uniqueItems: true)',
      });
    });

    it('keeps recursive references, which strict mode allows', () => {
      const tools = toOpenAITools(recursiveTools());
      expect(find(tools, 'plant_tree').parameters.properties!.children).toEqual({
        type: ['array', 'null'],
        items: { $ref: '#' },
      });
      const chart = find(tools, 'org_chart').parameters;
      expect(chart.properties!.root.properties!.reports).toEqual({
        type: ['array', 'null'],
        items: { $ref: '#/$defs/Employee' },
      });
      expect(chart.$defs!.Employee.properties!.reports).toEqual({
        type: ['array', 'null'],
        items: { $ref: '#/$defs/Employee' },
      });
    });

    it('sends a closed empty object for a tool without parameters', () => {
      expect(find(toOpenAITools(dtoTools()), 'ping').parameters).toEqual({
        type: 'object',
        title: 'pingInput',
        properties: {},
        required: [],
        additionalProperties: false,
      });
      expect(find(toOpenAITools([structuralTool('bare')]), 'bare').parameters).toEqual({
        type: 'object',
        properties: {},
        required: [],
        additionalProperties: false,
      });
    });

    it('closes an object whose additionalProperties is absent (a remote schema)', () => {
      const tool = structuralTool('remote', { type: 'object', properties: { q: { type: 'string' } } });
      expect(find(toOpenAITools([tool]), 'remote').parameters).toEqual({
        type: 'object',
        properties: { q: { type: ['string', 'null'] } },
        required: ['q'],
        additionalProperties: false,
      });
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
        'patternProperties',
        {
          type: 'object',
          properties: { meta: { type: 'object', patternProperties: { '^x': { type: 'string' } } } },
        },
        '#/properties/meta/patternProperties allows keys by pattern',
      ],
      [
        'allOf of two parts',
        { type: 'object', properties: { both: { allOf: [{ type: 'object' }, { type: 'object' }] } } },
        '#/properties/both/allOf combines schemas with allOf',
      ],
      [
        'a typeless property',
        { type: 'object', properties: { anything: {} } },
        '#/properties/anything accepts any value (it has no type)',
      ],
      [
        'a tuple',
        { type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }] } } },
        '#/properties/pair/prefixItems is a tuple',
      ],
      [
        'a root union',
        { anyOf: [{ type: 'object' }, { type: 'object' }] },
        '# is a union (anyOf/oneOf/allOf) at the root',
      ],
      ['a non-object root', { type: 'string' }, '# has type "string", not "object"'],
      [
        'an external $ref',
        { type: 'object', properties: { x: { $ref: 'https://example.com/x.json' } } },
        '#/properties/x refers to "https://example.com/x.json"',
      ],
    ])('rejects %s with the tool name and the JSON path', (_label, schema, fragment) => {
      const act = () => toOpenAITools([structuralTool('bad_tool', schema as never)]);
      expect(act).toThrow(ToolDefinitionError);
      expect(act).toThrow(`Tool 'bad_tool' cannot be exported for OpenAI (strict): ${fragment}`);
      expect(act).toThrow('Or export with { strict: false }.');
    });

    it('tells how to type the elements of an untyped DTO array', () => {
      const tool = structuralTool('untyped', {
        type: 'object',
        properties: { tags: { type: 'array', items: {} } },
      });
      expect(() => toOpenAITools([tool])).toThrow(
        "Tool 'untyped' cannot be exported for OpenAI (strict): #/properties/tags/items accepts any value (it has no type). Strict mode needs a type: give this part a type or an enum. In a DTO, type the elements: @IsString({ each: true }), or @ValidateNested({ each: true }) with @Type(() => Item). Or export with { strict: false }.",
      );
    });

    it('rejects objects nested more than 10 levels deep', () => {
      let schema: Record<string, unknown> = { type: 'string' };
      for (let level = 0; level < 11; level += 1)
        schema = { type: 'object', properties: { next: schema }, required: ['next'] };
      expect(() => toOpenAITools([structuralTool('deep', schema)])).toThrow(
        /#\/properties\/next(\/properties\/next){9} nests objects more than 10 levels deep/,
      );
    });

    it('rejects an enum with more than 1000 values', () => {
      const values = Array.from({ length: 1001 }, (_, index) => `v${index}`);
      expect(() =>
        toOpenAITools([
          structuralTool('big_enum', { type: 'object', properties: { v: { type: 'string', enum: values } } }),
        ]),
      ).toThrow(
        "Tool 'big_enum' cannot be exported for OpenAI (strict): #/properties/v/enum has 1001 values (at most 1000)",
      );
    });
  });

  describe('names and sources', () => {
    it('rejects a name longer than 64 characters', () => {
      const name = 'a'.repeat(65);
      expect(() => toOpenAITools([structuralTool(name)])).toThrow(ToolDefinitionError);
      expect(() => toOpenAITools([structuralTool(name)])).toThrow('it is 65 characters long (at most 64)');
    });

    it('accepts a name of exactly 64 characters', () => {
      const name = `${'server_prefix_'.repeat(4)}${'x'.repeat(8)}`;
      expect(name).toHaveLength(64);
      expect(toOpenAITools([structuralTool(name)])[0].function.name).toBe(name);
    });

    it('rejects a name with characters providers refuse', () => {
      expect(() => toOpenAITools([structuralTool('github.create_issue')])).toThrow(
        'A tool exported for OpenAI (strict) has the invalid name "github.create_issue": it contains characters other than letters, digits, _ and -.',
      );
    });

    it('accepts an object holding a tools map, as an Agent does', () => {
      const tools = new Map(dtoTools().map((tool) => [tool.name, tool]));
      expect(toOpenAITools({ tools }).map((tool) => tool.function.name)).toEqual([
        'plan_trip',
        'search',
        'ping',
        'reserve_room',
      ]);
    });
  });

  describe('api: responses', () => {
    it('puts name, description, parameters and strict at the top level', () => {
      const [tool] = toOpenAITools(dtoTools().slice(2, 3), { api: 'responses' });
      expect(tool).toEqual({
        type: 'function',
        name: 'ping',
        description: 'Check the service (no parameters)',
        parameters: {
          type: 'object',
          title: 'pingInput',
          properties: {},
          required: [],
          additionalProperties: false,
        },
        strict: true,
      });
    });
  });

  describe('strict: false', () => {
    it('keeps optional properties optional and exports valid JSON Schema', () => {
      const tools = toOpenAITools(corpus(), { strict: false });
      for (const tool of tools) {
        expect(tool.function.strict).toBe(false);
        expect(jsonSchemaToolViolations(tool.function.parameters)).toEqual([]);
      }
      const trip = find(tools, 'plan_trip').parameters;
      expect(trip.required).toEqual(['name', 'start', 'waypoints']);
      expect(trip.properties!.name).toEqual({ type: 'string', minLength: 2, maxLength: 40 });
      expect(find(tools, 'set_filter').parameters.properties!.shape.oneOf).toBeUndefined();
    });

    it('accepts an open map, which strict mode refuses', () => {
      const tool = structuralTool('with_map', {
        type: 'object',
        properties: { meta: { type: 'object', additionalProperties: { type: 'string' } } },
      });
      expect(find(toOpenAITools([tool], { strict: false }), 'with_map').parameters.properties!.meta).toEqual({
        type: 'object',
        additionalProperties: { type: 'string' },
      });
    });
  });
});
