import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolNotFoundError } from '../../../lib/errors/tool-not-found-error';
import type { BaseTool } from '../../../lib/tools/base-tool';
import { Param } from '../../../lib/tools/decorators/param.decorator';
import { Tool } from '../../../lib/tools/decorators/tool.decorator';
import { NativeTool } from '../../../lib/tools/native-tool';
import { ToolRegistry } from '../../../lib/tools/registry/tool-registry';
import { TravelTools } from '../../fixtures/toolsets/travel-tools';

function makeTool(name: string, result: unknown = name): NativeTool {
  return new NativeTool({ name, description: `The ${name} tool`, func: () => result });
}

/** A tool that is only the BaseTool shape: no class, no NativeTool. */
function structuralTool(name: string): BaseTool {
  return {
    name,
    description: 'A structural tool',
    inputSchema: null,
    outputSchema: null,
    tags: null,
    examples: null,
    capabilities: null,
    call: async (args) => ({ echoed: args ?? {} }),
  };
}

class MathTools {
  @Tool({ name: 'multiply', description: 'Multiply two integers' })
  multiply(@Param('a', { type: 'integer' }) a: number, @Param('b', { type: 'integer' }) b: number): number {
    return a * b;
  }
}

class ClashingTools {
  @Tool({ name: 'add', description: 'Another add' })
  add(): number {
    return 0;
  }

  @Tool({ name: 'subtract', description: 'Subtract' })
  subtract(): number {
    return 0;
  }
}

describe('ToolRegistry', () => {
  describe('register', () => {
    it('adds a tool and returns it', () => {
      const registry = new ToolRegistry();
      const tool = makeTool('add');
      expect(registry.register(tool)).toBe(tool);
      expect(registry.get('add')).toBe(tool);
      expect(registry.size).toBe(1);
    });

    it('accepts any object of the BaseTool shape and calls it', async () => {
      const registry = new ToolRegistry();
      registry.register(structuralTool('echo'));
      await expect(registry.resolve('echo').call({ x: 1 })).resolves.toEqual({ echoed: { x: 1 } });
    });

    it('throws ToolDefinitionError for a duplicate name, naming the fix', () => {
      const registry = new ToolRegistry();
      const first = makeTool('add', 1);
      registry.register(first);
      expect(() => registry.register(makeTool('add', 2))).toThrow(ToolDefinitionError);
      expect(() => registry.register(makeTool('add', 2))).toThrow(
        "A tool named 'add' is already registered. Rename one of them (MCP adapters take a namePrefix) or register with { replace: true }.",
      );
      expect(registry.get('add')).toBe(first);
    });

    it('replaces a tool of the same name with replace: true, keeping its position', () => {
      const registry = new ToolRegistry();
      registry.register(makeTool('add', 1));
      registry.register(makeTool('search'));
      const second = makeTool('add', 2);
      registry.register(second, { replace: true });
      expect(registry.get('add')).toBe(second);
      expect(registry.names()).toEqual(['add', 'search']);
    });

    it.each([
      ['null', null, /Only tool objects can be registered, got null/],
      ['a string', 'add', /Only tool objects can be registered, got string/],
      ['a function', () => 1, /Only tool objects can be registered, got function/],
      [
        'an object without a name',
        { call: () => 1 },
        /The registered tool has the invalid name undefined: it is not a string/,
      ],
      [
        'an object with a bad name',
        { name: 'bad name', call: () => 1 },
        /The registered tool has the invalid name "bad name"/,
      ],
      [
        'an object without call',
        { name: 'add', description: 'x' },
        /Tool 'add' has no call\(args, options\) method/,
      ],
    ])('throws ToolDefinitionError for %s', (_label, value, message) => {
      const registry = new ToolRegistry();
      expect(() => registry.register(value as unknown as BaseTool)).toThrow(ToolDefinitionError);
      expect(() => registry.register(value as unknown as BaseTool)).toThrow(message);
      expect(registry.size).toBe(0);
    });

    it('throws ToolDefinitionError for a structural tool whose capabilities are a bare string', () => {
      const registry = new ToolRegistry();
      const tool = { ...structuralTool('mailer'), capabilities: 'email.send' as unknown as string[] };
      expect(() => registry.register(tool)).toThrow(ToolDefinitionError);
      expect(() => registry.register(tool)).toThrow(
        "Tool 'mailer': capabilities must be a list, not the bare string 'email.send'",
      );
      expect(registry.has('mailer')).toBe(false);
    });

    it('throws ToolDefinitionError for a structural tool whose capabilities are not an array', () => {
      // The property is read again on every call: a Set or a generator there is refused, not read once.
      const registry = new ToolRegistry();
      const tool = { ...structuralTool('mailer'), capabilities: new Set(['email.send']) as never };
      expect(() => registry.register(tool)).toThrow(
        "Tool 'mailer': capabilities must be an array of strings such as ['records.write'], not a Set (spread it into an array: [...capabilities]).",
      );
      expect(registry.has('mailer')).toBe(false);
    });

    describe("with replace: 'same-source'", () => {
      function mcpTool(name: string, server: string): NativeTool {
        return new NativeTool({
          name,
          description: `${name} on ${server}`,
          func: () => server,
          metadata: { mcp: { server, transport: 'stdio' } },
        });
      }

      it('replaces a tool from the same source: native over native, one MCP server over itself', () => {
        const registry = new ToolRegistry();
        registry.register(makeTool('echo', 'first'));
        const second = registry.register(makeTool('echo', 'second'), { replace: 'same-source' });
        expect(registry.get('echo')).toBe(second);
        registry.register(mcpTool('lookup', 'crm'));
        const relisted = registry.register(mcpTool('lookup', 'crm'), { replace: 'same-source' });
        expect(registry.get('lookup')).toBe(relisted);
      });

      it('refuses a tool from another source, naming both and the fixes', () => {
        const registry = new ToolRegistry();
        const local = registry.register(makeTool('lookup'));
        expect(() => registry.register(mcpTool('lookup', 'crm'), { replace: 'same-source' })).toThrow(
          "Cannot register a tool of MCP server 'crm' named 'lookup': the name is taken by a native tool",
        );
        registry.register(mcpTool('search', 'crm'));
        expect(() => registry.register(mcpTool('search', 'wiki'), { replace: 'same-source' })).toThrow(
          "Cannot register a tool of MCP server 'wiki' named 'search': the name is taken by a tool of MCP server 'crm'",
        );
        expect(registry.get('lookup')).toBe(local);
      });

      it('reads a structural tool without metadata as native', () => {
        const registry = new ToolRegistry();
        registry.register(structuralTool('probe'));
        expect(() => registry.register(mcpTool('probe', 'x'), { replace: 'same-source' })).toThrow(
          'the name is taken by a native tool',
        );
        expect(registry.register(makeTool('probe'), { replace: 'same-source' }).name).toBe('probe');
      });

      it('registers none of a toolset when one name is held by another source', () => {
        const registry = new ToolRegistry();
        registry.register(mcpTool('add', 'calc'));
        expect(() => registry.registerAll(new TravelTools(), { replace: 'same-source' })).toThrow(
          "Cannot register a native tool named 'add': the name is taken by a tool of MCP server 'calc'",
        );
        expect(registry.names()).toEqual(['add']);
      });
    });
  });

  describe('registerAll', () => {
    it('scans an instance and registers every @Tool method, bound to it', async () => {
      const registry = new ToolRegistry();
      const tools = registry.registerAll(new TravelTools());
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'add',
        'book_hotel',
        'greet',
        'search_documents',
      ]);
      expect(registry.names().sort()).toEqual(['add', 'book_hotel', 'greet', 'search_documents']);
      await expect(registry.resolve('add').call({ a: 2, b: '3' })).resolves.toBe(5);
    });

    it('registers none of the tools when one name is taken', () => {
      const registry = new ToolRegistry();
      registry.registerAll(new TravelTools());
      const before = registry.list();
      expect(() => registry.registerAll(new ClashingTools())).toThrow(ToolDefinitionError);
      expect(() => registry.registerAll(new ClashingTools())).toThrow(
        "A tool named 'add' is already registered; ClashingTools cannot add it again.",
      );
      expect(registry.has('subtract')).toBe(false);
      expect(registry.list()).toEqual(before);
    });

    it('replaces tools of the same names with replace: true', async () => {
      const registry = new ToolRegistry();
      registry.registerAll(new TravelTools());
      registry.registerAll(new ClashingTools(), { replace: true });
      await expect(registry.resolve('add').call({})).resolves.toBe(0);
      expect(registry.has('subtract')).toBe(true);
    });

    it('throws ToolDefinitionError for something that is not an instance', () => {
      const registry = new ToolRegistry();
      expect(() => registry.registerAll(null as unknown as object)).toThrow(ToolDefinitionError);
      expect(() => registry.registerAll(null as unknown as object)).toThrow(
        'scanTools() needs a class instance, got null.',
      );
    });
  });

  describe('get', () => {
    it('returns undefined for an unknown name', () => {
      expect(new ToolRegistry().get('missing')).toBeUndefined();
    });
  });

  describe('resolve', () => {
    it('throws ToolNotFoundError naming the tools that exist', () => {
      const registry = new ToolRegistry();
      registry.register(makeTool('search'));
      registry.register(makeTool('add'));
      expect(() => registry.resolve('serach')).toThrow(ToolNotFoundError);
      expect(() => registry.resolve('serach')).toThrow(
        "Unknown tool 'serach'. Available tools: add, search.",
      );
    });

    it('says that no tools are registered in an empty registry', () => {
      expect(() => new ToolRegistry().resolve('add')).toThrow(
        "Unknown tool 'add'. No tools are registered; add one with addTool() or addToolset().",
      );
    });
  });

  describe('has', () => {
    it('tells whether a name is registered', () => {
      const registry = new ToolRegistry();
      registry.register(makeTool('add'));
      expect(registry.has('add')).toBe(true);
      expect(registry.has('Add')).toBe(false);
      expect(registry.has('__proto__')).toBe(false);
      expect(registry.has('constructor')).toBe(false);
    });
  });

  describe('list', () => {
    it('returns the tools in registration order as a new array', () => {
      const registry = new ToolRegistry();
      const tools = [makeTool('c'), makeTool('a'), makeTool('b')];
      for (const tool of tools) registry.register(tool);
      const listed = registry.list();
      expect(listed).toEqual(tools);
      listed.pop();
      expect(registry.list()).toHaveLength(3);
      expect(registry.names()).toEqual(['c', 'a', 'b']);
    });
  });

  describe('remove', () => {
    it('removes a tool and says whether it was there', () => {
      const registry = new ToolRegistry();
      registry.register(makeTool('add'));
      expect(registry.remove('add')).toBe(true);
      expect(registry.remove('add')).toBe(false);
      expect(registry.has('add')).toBe(false);
      expect(() => registry.resolve('add')).toThrow(ToolNotFoundError);
    });

    it('frees the name for a new registration', () => {
      const registry = new ToolRegistry();
      registry.register(makeTool('add', 1));
      registry.remove('add');
      const next = makeTool('add', 2);
      expect(registry.register(next)).toBe(next);
    });
  });

  describe('instances', () => {
    it('keeps no global state: two registries are independent', () => {
      const first = new ToolRegistry();
      const second = new ToolRegistry();
      first.registerAll(new MathTools());
      second.register(makeTool('add'));
      expect(first.names()).toEqual(['multiply']);
      expect(second.names()).toEqual(['add']);
      first.remove('multiply');
      expect(second.has('add')).toBe(true);
      expect(new ToolRegistry().size).toBe(0);
    });

    it('binds the tools of two instances of one class to their own instance', async () => {
      class Counter {
        constructor(private readonly start: number) {}

        @Tool({ name: 'current', description: 'Current value' })
        current(): number {
          return this.start;
        }
      }
      const first = new ToolRegistry();
      const second = new ToolRegistry();
      first.registerAll(new Counter(1));
      second.registerAll(new Counter(2));
      await expect(first.resolve('current').call()).resolves.toBe(1);
      await expect(second.resolve('current').call()).resolves.toBe(2);
    });
  });
});
