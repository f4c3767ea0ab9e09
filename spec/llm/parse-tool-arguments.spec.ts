import { ToolValidationError } from '../../lib/errors/tool-validation-error';
import { parseToolArguments } from '../../lib/llm/parse-tool-arguments';
import { toOpenAITools } from '../../lib/llm/to-openai-tools';
import { NativeTool } from '../../lib/tools/native-tool';
import { RoomRequest } from '../fixtures/llm/llm-tool-corpus';
import { dtoTools, structuralTool } from '../fixtures/llm/llm-tool-corpus';

describe('parseToolArguments', () => {
  describe('strict-mode nulls', () => {
    it('treats null for every optional property as absent, as OpenAI strict mode sends them', () => {
      const trip = dtoTools()[0];
      const declared = toOpenAITools([trip])[0].function.parameters;
      // What a strict-mode model sends: every key present, optional ones null.
      const sent = Object.fromEntries(Object.keys(declared.properties!).map((key) => [key, null]));
      Object.assign(sent, { name: 'Alps', start: { lat: 1, lon: 2 }, waypoints: [{ lat: 3, lon: 4 }] });
      const args = parseToolArguments(JSON.stringify(sent), trip);
      expect(args).toEqual({ name: 'Alps', start: { lat: 1, lon: 2 }, waypoints: [{ lat: 3, lon: 4 }] });
      expect(Object.keys(args)).not.toContain('room');
    });

    it('fills the default of an optional property the model sent as null', () => {
      const search = dtoTools()[1];
      expect(parseToolArguments('{"query":"tents","limit":null}', search)).toEqual({
        query: 'tents',
        limit: 10,
      });
    });

    it('keeps null for a property whose canonical schema accepts null', () => {
      const tool = new NativeTool({
        name: 'label',
        description: 'Set a label',
        func: () => 'ok',
        inputSchema: {
          type: 'object',
          properties: { label: { type: ['string', 'null'] } },
          required: ['label'],
        },
      });
      expect(parseToolArguments({ label: null }, tool)).toEqual({ label: null });
    });

    it('rejects null for a required property that does not accept null', () => {
      const act = () => parseToolArguments({ query: null }, dtoTools()[1]);
      expect(act).toThrow(ToolValidationError);
      expect(act).toThrow("Invalid arguments for tool 'search': query: must be a string, got null");
    });

    it('rebuilds DTO parameters of a decorated tool as instances', () => {
      const reserve = dtoTools()[3];
      const args = parseToolArguments('{"request":{"city":"Oslo","guests":"2","notes":null}}', reserve);
      expect(args.request).toBeInstanceOf(RoomRequest);
      expect(args.request).toEqual(Object.assign(new RoomRequest(), { city: 'Oslo', guests: 2 }));
    });
  });

  describe('input forms', () => {
    it('validates a structural tool against its input schema', () => {
      const tool = structuralTool('count', {
        type: 'object',
        properties: { n: { type: 'integer' } },
        required: ['n'],
        additionalProperties: false,
      });
      expect(parseToolArguments('{"n":"3"}', tool)).toEqual({ n: 3 });
      expect(() => parseToolArguments('{"n":"3","x":1}', tool)).toThrow(
        "Invalid arguments for tool 'count': x: is not an accepted field (accepted: n)",
      );
    });

    it('treats an empty string, null and undefined as no arguments', () => {
      const ping = dtoTools()[2];
      expect(parseToolArguments('', ping)).toEqual({});
      expect(parseToolArguments(null, ping)).toEqual({});
      expect(parseToolArguments(undefined, ping)).toEqual({});
    });

    it('rejects malformed JSON with a validation error naming the tool', () => {
      const act = () => parseToolArguments('{"query": ', dtoTools()[1]);
      expect(act).toThrow(ToolValidationError);
      expect(act).toThrow(/^Invalid arguments for tool 'search': the arguments are not valid JSON \(/);
    });

    it('rejects a JSON array', () => {
      expect(() =>
        parseToolArguments('[1]', structuralTool('count', { type: 'object', properties: {} })),
      ).toThrow("Invalid arguments for tool 'count': the arguments must be one JSON object, got an array");
    });
  });
});
