import 'reflect-metadata';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { RunAction } from '../../../lib/runtime/run-action';
import { Param } from '../../../lib/tools/decorators/param.decorator';
import { Tool } from '../../../lib/tools/decorators/tool.decorator';
import type { ToolOptions } from '../../../lib/tools/metadata/metadata-records';
import { scanTools } from '../../../lib/tools/registry/scan-tools';
import { BookingRequest } from '../../fixtures/dto/booking.dto';

function decorate(options: unknown): () => void {
  return () => {
    class Target {
      run(): number {
        return 1;
      }
    }
    Tool(options as ToolOptions)(
      Target.prototype,
      'run',
      Object.getOwnPropertyDescriptor(Target.prototype, 'run')!,
    );
  };
}

describe('Tool', () => {
  describe('arguments', () => {
    it.each([undefined, null, 'add'])(
      'throws ToolDefinitionError without an options object (%j)',
      (options) => {
        expect(decorate(options)).toThrow(ToolDefinitionError);
        expect(decorate(options)).toThrow(
          "@Tool() needs options: @Tool({ name: 'book_hotel', description: 'Book a hotel room' }).",
        );
      },
    );

    it.each([
      ['', /it is empty/],
      ['book hotel', /contains characters other than letters, digits, _ and -/],
      ['x'.repeat(65), /it is 65 characters long \(at most 64\)/],
      [undefined, /it is not a string/],
    ])('throws ToolDefinitionError for the name %j', (name, message) => {
      expect(decorate({ name, description: 'x' })).toThrow(ToolDefinitionError);
      expect(decorate({ name, description: 'x' })).toThrow(message);
      expect(decorate({ name, description: 'x' })).toThrow(/^@Tool\(\) has the invalid name/);
    });

    it('throws ToolDefinitionError without a description string', () => {
      expect(decorate({ name: 'add' })).toThrow(ToolDefinitionError);
      expect(decorate({ name: 'add', description: 42 })).toThrow(
        "@Tool({ name: 'add' }) needs a description string: say what the tool does and when to call it.",
      );
    });

    it.each([
      ['tags', 'travel', "@Tool({ name: 'add' }): tags must be a list of strings, e.g. tags: ['travel']."],
      ['tags', [1], "@Tool({ name: 'add' }): tags must be a list of strings, e.g. tags: ['travel']."],
      [
        'capabilities',
        'records.write',
        "@Tool({ name: 'add' }): capabilities must be a list, not the bare string 'records.write' (it would be read letter by letter); pass capabilities: ['records.write'].",
      ],
      [
        'capabilities',
        ['Records.Write', ' records.write'],
        "@Tool({ name: 'add' }): capability ' records.write' is not a capability name: it has leading or trailing spaces; write capabilities as lower-case ASCII words of [a-z0-9_-] joined by dots",
      ],
      ['examples', { a: 1 }, "@Tool({ name: 'add' }): examples must be a list of example argument objects."],
      [
        'inputSchema',
        'object',
        "@Tool({ name: 'add' }): inputSchema must be a JSON Schema object or a DTO class.",
      ],
      [
        'outputSchema',
        [],
        "@Tool({ name: 'add' }): outputSchema must be a JSON Schema object or a DTO class.",
      ],
      [
        'actionBuilder',
        {},
        "@Tool({ name: 'add' }): actionBuilder must be a function (args, context) => RunAction.",
      ],
      ['metadata', 'x', "@Tool({ name: 'add' }): metadata must be a plain object."],
    ])('throws ToolDefinitionError when %s is %j', (option, value, message) => {
      expect(decorate({ name: 'add', description: 'x', [option]: value })).toThrow(ToolDefinitionError);
      expect(decorate({ name: 'add', description: 'x', [option]: value })).toThrow(message);
    });

    it('accepts an empty description', () => {
      expect(decorate({ name: 'add', description: '' })).not.toThrow();
    });
  });

  describe('placement', () => {
    it('throws ToolDefinitionError on a static method', () => {
      expect(() => {
        class Statics {
          @Tool({ name: 'static_tool', description: 'x' })
          static run(): number {
            return 1;
          }
        }
        return Statics;
      }).toThrow("@Tool('static_tool') is on the static method run; tools must be instance methods.");
    });

    it('throws ToolDefinitionError on a symbol-named method', () => {
      const key = Symbol('run');
      class Symbols {
        [key](): number {
          return 1;
        }
      }
      const apply = () =>
        Tool({ name: 'symbolic', description: 'x' })(
          Symbols.prototype,
          key,
          Object.getOwnPropertyDescriptor(Symbols.prototype, key)!,
        );
      expect(apply).toThrow(ToolDefinitionError);
      expect(apply).toThrow("@Tool('symbolic') is on a symbol-named method; use a string-named method.");
    });

    it('throws ToolDefinitionError for two @Tool decorators on one method', () => {
      expect(() => {
        class Doubled {
          @Tool({ name: 'first', description: 'x' })
          @Tool({ name: 'second', description: 'x' })
          run(): number {
            return 1;
          }
        }
        return Doubled;
      }).toThrow('Doubled.run has two @Tool decorators; keep one.');
    });
  });

  describe('recorded options', () => {
    it('never writes into the caller options object', () => {
      const options: ToolOptions = { name: 'book', description: 'Book', tags: ['travel'] };
      class Booking {
        @Tool(options)
        book(@Param('booking') booking: BookingRequest): BookingRequest {
          return booking;
        }
      }
      scanTools(new Booking());
      expect(options).toEqual({ name: 'book', description: 'Book', tags: ['travel'] });
      expect(Object.isFrozen(options)).toBe(false);
    });

    it('carries every option to the built tool', async () => {
      const builder = (args: Record<string, unknown>) =>
        new RunAction({
          kind: 'tool.call',
          name: 'configured',
          payload: { arguments: args },
          metadata: { previewed: true },
        });
      class Configured {
        @Tool({
          name: 'configured',
          description: 'Configured tool',
          inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
          outputSchema: { type: 'string' },
          tags: ['search'],
          examples: [{ q: 'athens' }],
          capabilities: ['network.read', 'network.read'],
          actionBuilder: builder,
          metadata: { owner: 'team-a' },
          validateOutput: true,
        })
        run(@Param('q') q: string): number {
          return q.length;
        }
      }
      const [tool] = scanTools(new Configured());
      expect(tool.name).toBe('configured');
      expect(tool.description).toBe('Configured tool');
      expect(tool.inputSchema).toEqual({
        type: 'object',
        properties: { q: { type: 'string' } },
        required: ['q'],
        additionalProperties: false,
        title: 'configuredInput',
      });
      expect(tool.outputSchema).toEqual({ type: 'string', title: 'configuredOutput' });
      expect(tool.tags).toEqual(['search']);
      expect(tool.examples).toEqual([{ q: 'athens' }]);
      expect(tool.capabilities).toEqual(['network.read']);
      expect(tool.metadata).toMatchObject({
        owner: 'team-a',
        source: { className: 'Configured', methodName: 'run' },
      });
      expect((await tool.prepareAction({ q: 'x' })).metadata).toEqual({ previewed: true });
      await expect(tool.call({ q: 'athens' })).rejects.toThrow(
        /returned a result that does not match its output schema/,
      );
    });
  });

  describe('capabilities from an iterable', () => {
    it('reads a Set or a generator once, at decoration: later changes to the Set do not reach the tool', () => {
      const capabilities = new Set(['Records.Write', 'records.write']);
      class Saver {
        @Tool({ name: 'save', description: 'Saves', capabilities })
        save(): string {
          return 'saved';
        }

        @Tool({
          name: 'send',
          description: 'Sends',
          capabilities: (function* () {
            yield 'email.send';
          })(),
        })
        send(): string {
          return 'sent';
        }
      }
      capabilities.add('network.read');
      const byName = new Map(scanTools(new Saver()).map((tool) => [tool.name, tool]));
      expect(byName.get('save')?.capabilities).toEqual(['records.write']);
      expect(byName.get('send')?.capabilities).toEqual(['email.send']);
      expect(scanTools(new Saver()).map((tool) => tool.capabilities)).toEqual([
        ['records.write'],
        ['email.send'],
      ]);
    });
  });

  describe('options that are not known', () => {
    // Required<…>: the compiler refuses this literal if ToolOptions gains or loses an option.
    const everyOption: Required<ToolOptions> = {
      name: 'book',
      description: 'Book a hotel room',
      inputSchema: { type: 'object', properties: {} },
      outputSchema: { type: 'string' },
      tags: ['travel'],
      examples: [{}],
      capabilities: ['records.write'],
      actionBuilder: (_args, _context) => new RunAction({ kind: 'tool.call', name: 'book' }),
      metadata: { source: 'spec' },
      preserveSchema: false,
      validateOutput: false,
      task: 'optional',
    };

    it('accepts every option of ToolOptions at once', () => {
      expect(decorate(everyOption)).not.toThrow();
    });

    it.each([
      [
        { args: { a: 'int' } },
        "@Tool({ name: 'add' }) option 'args' is not known: it is the original's legacy field map; declare the arguments with @Param on the method's parameters, or pass inputSchema (a JSON Schema or a DTO class) instead.",
      ],
      [
        { func: () => 1 },
        "option 'func' is not known: the decorated method is the function the tool runs; remove func.",
      ],
      [
        { input_schema: {} },
        "option 'input_schema' is not known: it is the original's snake_case spelling; options are camelCase, use 'inputSchema' instead.",
      ],
      [{ descripton: 'x' }, "option 'descripton' is not known; did you mean 'description'?"],
      [
        { colour: 'red' },
        "option 'colour' is not known; remove it (an option that is not known would be ignored).",
      ],
    ])('refuses %j with a ToolDefinitionError that names it', (extra, message) => {
      const run = decorate({ name: 'add', description: 'Add', ...extra });
      expect(run).toThrow(ToolDefinitionError);
      expect(run).toThrow(message);
      expect(run).toThrow(
        'Known options: name, description, inputSchema, outputSchema, tags, examples, capabilities, actionBuilder, metadata, preserveSchema, validateOutput, task.',
      );
    });
  });
});
