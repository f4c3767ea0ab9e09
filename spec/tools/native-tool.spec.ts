import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { ToolRuntimeError } from '../../lib/errors/tool-runtime-error';
import { ToolValidationError } from '../../lib/errors/tool-validation-error';
import { RunAction } from '../../lib/runtime/run-action';
import { RunContext } from '../../lib/runtime/run-context';
import type { JsonSchema } from '../../lib/tools/json-schema';
import { NativeTool } from '../../lib/tools/native-tool';
import type { NativeToolOptions } from '../../lib/tools/native-tool';
import { BookingRequest, GeoPoint, SearchQuery } from '../fixtures/dto/booking.dto';

const addSchema: JsonSchema = {
  type: 'object',
  properties: { a: { type: 'integer' }, b: { type: 'integer' } },
  required: ['a', 'b'],
};

function makeTool(overrides: Partial<NativeToolOptions> = {}): NativeTool {
  return new NativeTool({
    name: 'add',
    description: 'Add two integers',
    inputSchema: addSchema,
    func: (args) => (args.a as number) + (args.b as number),
    ...overrides,
  });
}

describe('NativeTool', () => {
  describe('constructor', () => {
    it.each(['a', 'book_hotel', 'Get-Weather_2', 'x'.repeat(64)])('accepts the name %j', (name) => {
      expect(makeTool({ name }).name).toBe(name);
    });

    it.each([
      ['', /has the invalid name "": it is empty/],
      ['x'.repeat(65), /it is 65 characters long \(at most 64\)/],
      ['book hotel', /"book hotel": it contains characters other than letters, digits, _ and -/],
      ['book.hotel', /contains characters other than letters/],
      ['héllo', /contains characters other than letters/],
      ['tool\n', /contains characters other than letters/],
    ])('throws ToolDefinitionError for the name %j', (name, message) => {
      expect(() => makeTool({ name })).toThrow(ToolDefinitionError);
      expect(() => makeTool({ name })).toThrow(message);
      expect(() => makeTool({ name })).toThrow(/Use 1–64 characters of \[A-Za-z0-9_-\]/);
    });

    it('throws ToolDefinitionError for a name that is not a string', () => {
      expect(() => makeTool({ name: 42 as unknown as string })).toThrow(ToolDefinitionError);
      expect(() => makeTool({ name: 42 as unknown as string })).toThrow(
        /invalid name 42: it is not a string/,
      );
    });

    it('throws ToolDefinitionError without an options object or a function', () => {
      expect(() => new NativeTool(undefined as unknown as NativeToolOptions)).toThrow(ToolDefinitionError);
      expect(() => new NativeTool(null as unknown as NativeToolOptions)).toThrow(
        /needs an options object: \{ name, description, func \}/,
      );
      expect(() => makeTool({ func: undefined as unknown as NativeToolOptions['func'] })).toThrow(
        ToolDefinitionError,
      );
      expect(() => makeTool({ func: 'run' as unknown as NativeToolOptions['func'] })).toThrow(
        /Tool 'add' needs a function: pass \{ func:/,
      );
    });

    it('throws ToolDefinitionError for an actionBuilder that is not a function', () => {
      expect(() => makeTool({ actionBuilder: {} as unknown as NativeToolOptions['actionBuilder'] })).toThrow(
        ToolDefinitionError,
      );
      expect(() => makeTool({ actionBuilder: {} as unknown as NativeToolOptions['actionBuilder'] })).toThrow(
        /actionBuilder must be a function returning a RunAction/,
      );
    });

    it('throws ToolDefinitionError for a schema it cannot use', () => {
      expect(() => makeTool({ inputSchema: 'object' as unknown as JsonSchema })).toThrow(ToolDefinitionError);
      expect(() => makeTool({ inputSchema: 'object' as unknown as JsonSchema })).toThrow(
        /Tool 'add': A schema must be an object/,
      );
      const broken = { type: 'object', properties: { a: { $ref: '#/$defs/Missing' } } } as JsonSchema;
      expect(() => makeTool({ inputSchema: broken })).toThrow(ToolDefinitionError);
      expect(() => makeTool({ inputSchema: broken })).toThrow(
        /Tool 'add' has an input schema that cannot be used/,
      );
    });

    it('turns null tags and examples into empty arrays', () => {
      const tool = makeTool({ tags: null, examples: null });
      expect(tool.tags).toEqual([]);
      expect(tool.examples).toEqual([]);
      expect(makeTool().tags).toEqual([]);
      expect(makeTool().examples).toEqual([]);
    });

    it('copies tags and examples so the caller arrays stay its own', () => {
      const tags = ['math'];
      const examples = [{ a: 1, b: 2 }];
      const tool = makeTool({ tags, examples });
      tags.push('changed');
      examples.push({ a: 3, b: 4 });
      expect(tool.tags).toEqual(['math']);
      expect(tool.examples).toEqual([{ a: 1, b: 2 }]);
    });

    it('drops empty and duplicate capabilities, keeps first-occurrence order and freezes them', () => {
      const tool = makeTool({
        capabilities: ['records.write', '', 'network.read', 'records.write', 'email.send', 'network.read'],
      });
      expect(tool.capabilities).toEqual(['records.write', 'network.read', 'email.send']);
      expect(Object.isFrozen(tool.capabilities)).toBe(true);
      expect(makeTool({ capabilities: null }).capabilities).toEqual([]);
    });

    it('lower-cases capabilities, so a rule on network.read matches Network.Read', () => {
      expect(
        makeTool({ capabilities: ['Network.Read', 'network.read', 'Records-Archive.Write_2'] }).capabilities,
      ).toEqual(['network.read', 'records-archive.write_2']);
    });

    it('throws ToolDefinitionError for a bare string instead of splitting it into characters', () => {
      const bare = () => makeTool({ capabilities: 'records.write' as never });
      expect(bare).toThrow(ToolDefinitionError);
      expect(bare).toThrow(
        "Tool 'add': capabilities must be a list, not the bare string 'records.write' (it would be read letter by letter); pass capabilities: ['records.write'].",
      );
    });

    it('takes capabilities from any iterable: a Set, a generator, a Map of names', () => {
      expect(makeTool({ capabilities: new Set(['b.x', 'a', 'B.X']) }).capabilities).toEqual(['b.x', 'a']);
      function* names(): Generator<string> {
        yield 'records.write';
        yield '';
        yield 'Network.Read';
        yield 'records.write';
      }
      const tool = makeTool({ capabilities: names() });
      expect(tool.capabilities).toEqual(['records.write', 'network.read']);
      expect(Object.isFrozen(tool.capabilities)).toBe(true);
      expect(makeTool({ capabilities: new Map([['a', 1]]).keys() }).capabilities).toEqual(['a']);
    });

    it('throws ToolDefinitionError for a bare String object, read letter by letter otherwise', () => {
      expect(() => makeTool({ capabilities: new String('abc') })).toThrow(
        "Tool 'add': capabilities must be a list, not the bare string 'abc'",
      );
    });

    it('throws ToolDefinitionError for capabilities that are not iterable, or an iterable of non-strings', () => {
      expect(() => makeTool({ capabilities: 42 as never })).toThrow(
        "Tool 'add': capabilities must be a list (an array, a Set or another iterable) of strings such as ['records.write'], not the number 42.",
      );
      expect(() => makeTool({ capabilities: { 0: 'a', length: 1 } as never })).toThrow(
        'capabilities must be a list (an array, a Set or another iterable) of strings such as',
      );
      expect(() => makeTool({ capabilities: new Set([7]) as never })).toThrow(
        "Tool 'add': capability the number 7 is not a capability name (capabilities are strings such as 'network.read')",
      );
      expect(() => makeTool({ capabilities: [7] as never })).toThrow(
        "Tool 'add': capability the number 7 is not a capability name (capabilities are strings such as 'network.read')",
      );
    });

    it.each([
      [' network.read', 'it has leading or trailing spaces'],
      ['n\u0435twork.read', 'it contains the non-ASCII character U+0435'],
      ['network\u200b.read', 'it contains the non-ASCII character U+200B'],
      ['\uff4eetwork.read', 'it contains the non-ASCII character U+FF4E'],
      ['\u212aey.read', 'it contains the non-ASCII character U+212A'],
      ['network..read', 'it has an empty segment'],
      ['network.', 'it has an empty segment'],
      ['network.*', "'*' belongs in policy rules ('network.*'), not in a tool's capabilities"],
      ['network read', 'it contains white space (U+0020)'],
      ['network/read', "it contains '/'"],
    ])('throws ToolDefinitionError for the capability %j with the fix in the message', (capability, why) => {
      const build = () => makeTool({ capabilities: [capability] });
      expect(build).toThrow(ToolDefinitionError);
      expect(build).toThrow(why);
      expect(build).toThrow(
        "write capabilities as lower-case ASCII words of [a-z0-9_-] joined by dots, e.g. 'network.read' or 'records.write'.",
      );
    });

    it('shows invisible and look-alike characters of a bad capability as escapes', () => {
      expect(() => makeTool({ capabilities: ['n\u0435twork.read'] })).toThrow(
        "Tool 'add': capability 'n\\u0435twork.read' is not a capability name",
      );
    });

    it('infers a closed empty object input schema when none is given', () => {
      const tool = makeTool({ inputSchema: undefined, func: () => 0 });
      expect(tool.inputSchema).toEqual({
        type: 'object',
        properties: {},
        required: [],
        additionalProperties: false,
        title: 'addInput',
      });
      expect(makeTool({ inputSchema: null, func: () => 0 }).inputSchema).toEqual(tool.inputSchema);
    });

    it('throws ToolDefinitionError for a function with parameters and no inputSchema', () => {
      for (const inputSchema of [undefined, null]) {
        const build = () => makeTool({ inputSchema, func: (args) => args.city });
        expect(build).toThrow(ToolDefinitionError);
        expect(build).toThrow(
          "Tool 'add' has a function that takes arguments but no inputSchema, so every call with arguments would be refused",
        );
        expect(build).toThrow('Pass inputSchema: a DTO class or a JSON Schema');
        expect(build).toThrow('or declare the tool with @Tool on a class method');
      }
    });

    it('accepts a function that reads only its context when inputSchema: {} says it takes no arguments', async () => {
      const tool = makeTool({ inputSchema: {}, func: (_args, context) => context.runId.length > 0 });
      await expect(tool.call({})).resolves.toBe(true);
    });

    it('normalizes a given input schema, closes it and titles it <name>Input', () => {
      expect(makeTool().inputSchema).toEqual({
        ...addSchema,
        additionalProperties: false,
        title: 'addInput',
      });
      expect(addSchema).not.toHaveProperty('additionalProperties');
    });

    it('keeps a title and an open object that the given schema states', () => {
      const tool = makeTool({ inputSchema: { type: 'object', title: 'Custom', additionalProperties: true } });
      expect(tool.inputSchema).toEqual({
        type: 'object',
        title: 'Custom',
        properties: {},
        required: [],
        additionalProperties: true,
      });
    });

    it('accepts a DTO class and a legacy field map as the input schema', () => {
      expect(makeTool({ inputSchema: BookingRequest }).inputSchema).toMatchObject({
        type: 'object',
        required: ['location', 'guests'],
        additionalProperties: false,
        title: 'addInput',
      });
      expect(makeTool({ inputSchema: { a: 'int', b: Number } }).inputSchema).toEqual({
        type: 'object',
        properties: { a: { type: 'integer' }, b: { type: 'number' } },
        required: ['a', 'b'],
        additionalProperties: false,
        title: 'addInput',
      });
    });

    it('declares no output schema when none is given, never a placeholder that accepts anything', () => {
      expect(makeTool().outputSchema).toBeNull();
      expect(makeTool({ outputSchema: null }).outputSchema).toBeNull();
    });

    it('builds the output schema of a DTO class', () => {
      expect(makeTool({ outputSchema: SearchQuery }).outputSchema).toMatchObject({
        type: 'object',
        required: ['query'],
        additionalProperties: false,
        title: 'addOutput',
      });
    });

    it('throws ToolDefinitionError for validateOutput without an output schema', () => {
      expect(() => makeTool({ validateOutput: true })).toThrow(ToolDefinitionError);
      expect(() => makeTool({ validateOutput: true })).toThrow(
        "Tool 'add' asks for validateOutput but has no output schema to check results against. Pass outputSchema",
      );
    });

    it('normalizes a given output schema with the title <name>Output', () => {
      expect(makeTool({ outputSchema: { type: 'number' } }).outputSchema).toEqual({
        type: 'number',
        title: 'addOutput',
      });
      expect(
        makeTool({ outputSchema: { type: 'object', properties: { sum: { type: 'integer' } } } }).outputSchema,
      ).toEqual({
        type: 'object',
        properties: { sum: { type: 'integer' } },
        required: [],
        additionalProperties: false,
        title: 'addOutput',
      });
    });

    it('keeps a remote schema exactly as given with preserveSchema, without sharing it', () => {
      const remote: JsonSchema = {
        type: 'object',
        properties: { query: { type: 'string' }, nested: { $ref: '#/$defs/Nested' } },
        $defs: { Nested: { type: 'object', properties: { x: { type: 'number' } } } },
      };
      const before = structuredClone(remote);
      const tool = makeTool({
        inputSchema: remote,
        outputSchema: { type: 'object' },
        preserveSchema: true,
        func: () => 'ok',
      });
      expect(tool.inputSchema).toEqual(before);
      expect(tool.inputSchema).not.toBe(remote);
      expect(tool.outputSchema).toEqual({ type: 'object' });
      expect(remote).toEqual(before);
    });

    it('accepts fields the remote schema leaves open with preserveSchema', () => {
      const tool = makeTool({
        inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
        preserveSchema: true,
      });
      expect(tool.validateArgs({ query: 'x', extra: 1 })).toEqual({ query: 'x', extra: 1 });
    });

    it('freezes a copy of the metadata', () => {
      const metadata = { builtin: 'calculator' };
      const tool = makeTool({ metadata });
      metadata.builtin = 'changed';
      expect(tool.metadata).toEqual({ builtin: 'calculator' });
      expect(Object.isFrozen(tool.metadata)).toBe(true);
    });
  });

  describe('validateArgs', () => {
    it('returns a new coerced object and never mutates the input', () => {
      const input = { a: '2', b: 3 };
      const result = makeTool().validateArgs(input);
      expect(result).toEqual({ a: 2, b: 3 });
      expect(result).not.toBe(input);
      expect(input).toEqual({ a: '2', b: 3 });
    });

    it('returns a new object even when nothing needs coercing', () => {
      const input = { a: 1, b: 2 };
      const result = makeTool().validateArgs(input);
      expect(result).toEqual(input);
      expect(result).not.toBe(input);
    });

    it('throws ToolValidationError, a ToolInputError, listing every problem with its path', () => {
      const run = () => makeTool().validateArgs({ a: 'two', c: 1 });
      expect(run).toThrow(ToolValidationError);
      expect(run).toThrow(ToolInputError);
      try {
        run();
      } catch (error) {
        const issues = (error as ToolValidationError).issues;
        expect(issues).toEqual(
          expect.arrayContaining([
            { path: 'a', message: 'must be an integer, got the string "two"' },
            { path: 'b', message: 'is required' },
            { path: 'c', message: expect.stringContaining('not') },
          ]),
        );
        expect((error as ToolValidationError).message).toMatch(/^Invalid arguments for tool 'add': /);
        expect((error as ToolValidationError).toolName).toBe('add');
      }
      expect.assertions(5);
    });

    it('treats missing arguments as an empty object', () => {
      const tool = makeTool({ inputSchema: undefined, func: () => 'ok' });
      expect(tool.validateArgs()).toEqual({});
      expect(tool.validateArgs(null)).toEqual({});
      expect(() => tool.validateArgs({ extra: 1 })).toThrow(ToolValidationError);
    });
  });

  describe('call', () => {
    it('validates, then runs the function with the coerced arguments', async () => {
      const func = jest.fn((args: Record<string, unknown>) => (args.a as number) + (args.b as number));
      const tool = makeTool({ func });
      await expect(tool.call({ a: '40', b: 2 })).resolves.toBe(42);
      expect(func).toHaveBeenCalledTimes(1);
      expect(func.mock.calls[0][0]).toEqual({ a: 40, b: 2 });
    });

    it('never runs the function when the arguments are invalid', async () => {
      const func = jest.fn(() => 0);
      const tool = makeTool({ func });
      await expect(tool.call({ a: 1 })).rejects.toThrow(ToolValidationError);
      await expect(tool.call({ a: 1 })).rejects.toThrow("Invalid arguments for tool 'add': b: is required");
      expect(func).not.toHaveBeenCalled();
    });

    it('runs async functions and returns their result', async () => {
      const tool = makeTool({ func: async (args) => ({ sum: (args.a as number) + (args.b as number) }) });
      await expect(tool.call({ a: 1, b: 2 })).resolves.toEqual({ sum: 3 });
    });

    it('lets errors from the function propagate unchanged', async () => {
      class CustomFailure extends Error {}
      const failure = new CustomFailure('database is down');
      const sync = makeTool({
        func: () => {
          throw failure;
        },
      });
      const async = makeTool({ func: async () => Promise.reject(failure) });
      await expect(sync.call({ a: 1, b: 2 })).rejects.toBe(failure);
      await expect(async.call({ a: 1, b: 2 })).rejects.toBe(failure);
    });

    it('passes the given context, or a new one carrying the given signal, to a function that reads it', async () => {
      const seen: RunContext[] = [];
      const tool = makeTool({
        func: (_args, context) => {
          seen.push(context);
          return context.runId;
        },
      });
      const context = new RunContext({ runId: 'run-1' });
      await expect(tool.call({ a: 1, b: 2 }, { context })).resolves.toBe('run-1');
      expect(seen[0]).toBe(context);
      const controller = new AbortController();
      await tool.call({ a: 1, b: 2 }, { signal: controller.signal });
      expect(seen[1]).toBeInstanceOf(RunContext);
      controller.abort();
      expect(seen[1].signal.aborted).toBe(true);
    });

    it('always returns a promise: invalid arguments and synchronous throws reject, never throw', async () => {
      const throwing = makeTool({
        func: () => {
          throw new Error('sync');
        },
      });
      let invalid: Promise<unknown> | undefined;
      let failed: Promise<unknown> | undefined;
      let invoked: Promise<unknown> | undefined;
      expect(() => (invalid = throwing.call({ a: 'x', b: 2 }))).not.toThrow();
      expect(() => (failed = throwing.call({ a: 1, b: 2 }))).not.toThrow();
      expect(() => (invoked = throwing.invoke({ a: 1, b: 2 }))).not.toThrow();
      await expect(invalid).rejects.toThrow(ToolValidationError);
      await expect(failed).rejects.toThrow('sync');
      await expect(invoked).rejects.toThrow('sync');
    });

    it('adopts thenables that are not native promises', async () => {
      const tool = makeTool({
        func: (args) => ({ then: (resolve: (value: unknown) => void) => resolve(args.a) }),
      });
      await expect(tool.call({ a: 7, b: 0 })).resolves.toBe(7);
      await expect(tool.invoke({ a: 8, b: 0 })).resolves.toBe(8);
    });

    it('checks results of async functions against the output schema too', async () => {
      const strict = makeTool({
        outputSchema: { type: 'string' },
        validateOutput: true,
        func: async () => 3,
      });
      await expect(strict.call({ a: 1, b: 2 })).rejects.toThrow(ToolRuntimeError);
      await expect(strict.invoke({ a: 1, b: 2 })).rejects.toThrow(/result: must be a string, got integer/);
    });

    it('keeps its own copy of the DTO binding: changing the given one later changes nothing', async () => {
      const binding: { properties: Record<string, Function> } = { properties: { point: GeoPoint } };
      const tool = new NativeTool({
        name: 'locate',
        description: 'Locates a point',
        inputSchema: {
          type: 'object',
          properties: { point: { type: 'object', additionalProperties: true } },
          required: ['point'],
        },
        dto: binding,
        func: (args) => args.point,
      });
      binding.properties.point = BookingRequest;
      await expect(tool.call({ point: { lat: 1, lon: 2 } })).resolves.toBeInstanceOf(GeoPoint);
    });

    it('does not check results unless validateOutput is on', async () => {
      const loose = makeTool({ outputSchema: { type: 'string' } });
      await expect(loose.call({ a: 1, b: 2 })).resolves.toBe(3);
    });

    it('checks results against the output schema with validateOutput', async () => {
      const strict = makeTool({ outputSchema: { type: 'string' }, validateOutput: true });
      await expect(strict.call({ a: 1, b: 2 })).rejects.toThrow(ToolRuntimeError);
      await expect(strict.call({ a: 1, b: 2 })).rejects.toThrow(
        "Tool 'add' returned a result that does not match its output schema (result: must be a string, got integer). Fix the tool or its outputSchema.",
      );
      const good = makeTool({ outputSchema: { type: 'integer' }, validateOutput: true });
      await expect(good.call({ a: 1, b: 2 })).resolves.toBe(3);
    });
  });

  describe('prepareAction', () => {
    it('builds a tool.call RunAction with the name, description, arguments and capabilities', async () => {
      const tool = makeTool({ capabilities: ['math.compute'] });
      const action = await tool.prepareAction({ a: 1, b: 2 });
      expect(action).toBeInstanceOf(RunAction);
      expect(action.kind).toBe('tool.call');
      expect(action.name).toBe('add');
      expect(action.description).toBe('Add two integers');
      expect(action.payload).toEqual({ arguments: { a: 1, b: 2 } });
      expect(action.capabilities).toEqual(['math.compute']);
    });

    it('leaves the description null when the tool has none', async () => {
      const action = await makeTool({ description: '' }).prepareAction({ a: 1, b: 2 });
      expect(action.description).toBeNull();
    });

    it('uses a sync actionBuilder that adds artifacts and metadata, passing the context', async () => {
      const context = new RunContext({ runId: 'run-7' });
      const builder = jest.fn(
        (args: Record<string, unknown>, runContext: RunContext) =>
          new RunAction({
            kind: 'tool.call',
            name: 'add',
            payload: { arguments: args },
            artifacts: [{ kind: 'preview', content: `${String(args.a)} + ${String(args.b)}` }],
            metadata: { runId: runContext.runId },
          }),
      );
      const tool = makeTool({ actionBuilder: builder, capabilities: ['math.compute'] });
      const action = await tool.prepareAction({ a: 1, b: 2 }, context);
      expect(builder).toHaveBeenCalledWith({ a: 1, b: 2 }, context);
      expect(action.artifacts).toEqual([{ kind: 'preview', content: '1 + 2', actionId: action.actionId }]);
      expect(action.metadata).toEqual({ runId: 'run-7' });
      expect(action.capabilities).toEqual(['math.compute']);
    });

    it('awaits an async actionBuilder and merges the tool capabilities back in after its own', async () => {
      const tool = makeTool({
        capabilities: ['records.write', 'email.send'],
        actionBuilder: async (args) =>
          new RunAction({
            kind: 'tool.call',
            name: 'add',
            payload: { arguments: args },
            capabilities: ['email.send', 'audit.log'],
          }),
      });
      const action = await tool.prepareAction({ a: 1, b: 2 });
      expect(action.capabilities).toEqual(['email.send', 'audit.log', 'records.write']);
    });

    it('gives the builder a context even when none is passed', async () => {
      let received: unknown;
      const tool = makeTool({
        actionBuilder: (args, context) => {
          received = context;
          return new RunAction({ kind: 'tool.call', name: 'add', payload: { arguments: args } });
        },
      });
      await tool.prepareAction({ a: 1, b: 2 });
      expect(received).toBeInstanceOf(RunContext);
    });

    it.each([
      ['a plain object', () => ({ kind: 'tool.call', name: 'add' }), /must return a RunAction .*got object/],
      ['null', () => null, /must return a RunAction .*got null/],
      ['undefined', () => undefined, /must return a RunAction .*got undefined/],
      ['a promise of a string', async () => 'tool.call', /must return a RunAction .*got string/],
    ])('throws ToolDefinitionError when the actionBuilder returns %s', async (_label, builder, message) => {
      const tool = makeTool({ actionBuilder: builder as unknown as NativeToolOptions['actionBuilder'] });
      await expect(tool.prepareAction({ a: 1, b: 2 })).rejects.toThrow(ToolDefinitionError);
      await expect(tool.prepareAction({ a: 1, b: 2 })).rejects.toThrow(message);
      await expect(tool.prepareAction({ a: 1, b: 2 })).rejects.toThrow(/The actionBuilder of tool 'add'/);
    });

    it('lets errors thrown by the actionBuilder propagate unchanged', async () => {
      const failure = new ToolInputError('cannot preview');
      const tool = makeTool({
        actionBuilder: () => {
          throw failure;
        },
      });
      await expect(tool.prepareAction({ a: 1, b: 2 })).rejects.toBe(failure);
    });
  });
});

describe('NativeTool.hasActionBuilder', () => {
  it('says whether an actionBuilder prepares the actions', () => {
    const plain = new NativeTool({ name: 'plain', description: 'd', func: () => 1 });
    const built = new NativeTool({
      name: 'built',
      description: 'd',
      func: () => 1,
      actionBuilder: (args) =>
        new RunAction({ kind: 'tool.call', name: 'built', payload: { arguments: args } }),
    });
    expect([plain.hasActionBuilder, built.hasActionBuilder]).toEqual([false, true]);
  });
});
