import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { collectTools } from '../../lib/llm/collect-tools';
import { structuralTool } from '../fixtures/llm/llm-tool-corpus';

describe('collectTools', () => {
  describe('sources', () => {
    it('returns the tools of an array, a Set, a map holder and an iterable holder in order', () => {
      const tools = [structuralTool('a'), structuralTool('b')];
      expect(collectTools(tools).map((tool) => tool.name)).toEqual(['a', 'b']);
      expect(collectTools(new Set(tools)).map((tool) => tool.name)).toEqual(['a', 'b']);
      expect(
        collectTools({ tools: new Map(tools.map((tool) => [tool.name, tool])) }).map((tool) => tool.name),
      ).toEqual(['a', 'b']);
      expect(collectTools({ tools }).map((tool) => tool.name)).toEqual(['a', 'b']);
    });

    it('reads the values of a read-only map view that is not a Map (the Agent exposes one)', () => {
      const backing = new Map([['a', structuralTool('a')]]);
      const view = {
        get: (name: string) => backing.get(name),
        values: () => backing.values(),
        [Symbol.iterator]: () => backing.entries(),
      };
      expect(collectTools({ tools: view as never }).map((tool) => tool.name)).toEqual(['a']);
    });
  });

  describe('errors', () => {
    it('rejects a source without tools', () => {
      expect(() => collectTools({} as never)).toThrow(ToolDefinitionError);
      expect(() => collectTools({} as never)).toThrow(
        'Expected an array of tools, or an object with a `tools` map or iterable (such as an Agent).',
      );
    });

    it('rejects an entry that is not a tool', () => {
      expect(() => collectTools([null] as never)).toThrow(
        'Expected tools with a name, a description and a call() method, got null.',
      );
    });

    it('rejects duplicate names', () => {
      expect(() => collectTools([structuralTool('a'), structuralTool('a')])).toThrow(
        "Two tools are named 'a'; a model needs unique tool names.",
      );
    });
  });
});
