import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { NativeTool } from '../../lib/tools/native-tool';
import { NATIVE_TOOL_OPTIONS } from '../../lib/tools/native-tool-options';
import type { NativeToolOptions } from '../../lib/tools/native-tool-options';
import { BookingRequest } from '../fixtures/dto/booking.dto';

const base = { name: 'add', description: 'Add two integers', func: () => 3 };

function refusal(options: Record<string, unknown>): ToolDefinitionError {
  try {
    new NativeTool({ ...base, ...options } as NativeToolOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return error as ToolDefinitionError;
  }
  throw new ToolDefinitionError('new NativeTool() accepted the options');
}

describe('NATIVE_TOOL_OPTIONS', () => {
  // Required<…>: the compiler refuses this literal if NativeToolOptions gains or loses an option.
  const everyOption: Required<NativeToolOptions> = {
    name: 'book',
    description: 'Book a hotel room',
    inputSchema: { type: 'object', properties: { booking: { type: 'object' } } },
    outputSchema: { type: 'string' },
    tags: ['travel'],
    func: (args) => JSON.stringify(args),
    examples: [{ booking: {} }],
    capabilities: ['records.write'],
    actionBuilder: null,
    validateOutput: true,
    metadata: { source: 'spec' },
    preserveSchema: false,
    dto: { properties: { booking: BookingRequest } },
    limits: { maxDepth: 10 },
    usesContext: false,
    task: 'optional',
  };

  it('lists exactly the options of NativeToolOptions', () => {
    expect([...NATIVE_TOOL_OPTIONS.names].sort()).toEqual(Object.keys(everyOption).sort());
  });

  it('lets new NativeTool() take every option at once, and each set to undefined', () => {
    expect(new NativeTool(everyOption).name).toBe('book');
    const undefinedOptional = Object.fromEntries(
      NATIVE_TOOL_OPTIONS.names.map((name) => [name, undefined]),
    ) as Partial<NativeToolOptions>;
    expect(new NativeTool({ ...undefinedOptional, ...base }).name).toBe('add');
  });
});

describe('NativeTool', () => {
  describe('constructor with an option that is not known', () => {
    it("refuses the original's legacy 'args' and says to pass inputSchema", () => {
      const error = refusal({ args: { a: 'int' } });
      expect(error.message).toBe(
        "new NativeTool({ name: 'add' }) option 'args' is not known: it is the original's legacy field map; pass " +
          "inputSchema (a JSON Schema, a DTO class or a legacy field map such as { a: 'int' }) instead. Known options: " +
          'name, description, inputSchema, outputSchema, tags, func, examples, capabilities, actionBuilder, ' +
          'validateOutput, metadata, preserveSchema, dto, limits, usesContext, task.',
      );
      expect(error.toolName).toBe('add');
    });

    it.each([
      ['input_schema', 'inputSchema'],
      ['output_schema', 'outputSchema'],
      ['action_builder', 'actionBuilder'],
    ])("names the camelCase option for the original's %s", (legacy, camel) => {
      expect(refusal({ [legacy]: null }).message).toContain(
        `option '${legacy}' is not known: it is the original's snake_case spelling; options are camelCase, use '${camel}' instead.`,
      );
    });

    it('suggests the option a misspelling was meant to be', () => {
      expect(refusal({ descripton: 'x' }).message).toContain(
        "option 'descripton' is not known; did you mean 'description'?",
      );
      expect(refusal({ capabilites: ['a'] }).message).toContain("did you mean 'capabilities'?");
    });

    it('refuses any other option, naming every one that is not known', () => {
      expect(refusal({ colour: 'red', size: 1 }).message).toMatch(
        /^new NativeTool\(\{ name: 'add' \}\) option 'colour' is not known; remove it .* Also not known: 'size'\./,
      );
    });

    it('names the owner alone when the tool name is itself invalid', () => {
      expect(refusal({ name: 'bad name', args: {} }).message).toMatch(/^new NativeTool\(\) option 'args'/);
    });
  });
});
