import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import { RunContext } from '../../../lib/runtime/run-context';
import { Context } from '../../../lib/tools/decorators/context.decorator';
import { Param } from '../../../lib/tools/decorators/param.decorator';
import { Tool } from '../../../lib/tools/decorators/tool.decorator';
import { scanTools } from '../../../lib/tools/registry/scan-tools';
import { IsInt } from 'class-validator';
import { BookingRequest } from '../../fixtures/dto/booking.dto';
import { BookingStore, TravelTools } from '../../fixtures/toolsets/travel-tools';

class WholeArgs {
  @IsInt() count!: number;
}

function toolsByName(instance: object) {
  return new Map(scanTools(instance).map((tool) => [tool.name, tool]));
}

describe('scanTools', () => {
  it('builds the seed add tool with integer parameters and a number output schema', () => {
    const add = toolsByName(new TravelTools()).get('add')!;
    expect(add.inputSchema).toEqual({
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'integer' } },
      required: ['a', 'b'],
      additionalProperties: false,
      title: 'addInput',
    });
    expect(add.outputSchema).toEqual({ type: 'number', title: 'addOutput' });
    expect(add.tags).toEqual(['travel']);
  });

  it('calls the method on the instance with coerced arguments', async () => {
    const tools = toolsByName(new TravelTools());
    await expect(tools.get('add')!.call({ a: '2', b: 3 })).resolves.toBe(5);
    await expect(tools.get('greet')!.call({ name: 'Ada' })).resolves.toBe('Hello, Ada.');
  });

  it('gives book_hotel a BookingRequest instance with guests coerced to 2', async () => {
    const store = new BookingStore();
    const bookHotel = toolsByName(new TravelTools(store)).get('book_hotel')!;
    await expect(bookHotel.call({ booking: { location: 'Athens', guests: '2' } })).resolves.toEqual({
      id: 'BK-1',
      guests: 2,
    });
    expect(store.saved[0]).toBeInstanceOf(BookingRequest);
    expect(store.saved[0].guests).toBe(2);
    expect(bookHotel.capabilities).toEqual(['records.write']);
    expect(bookHotel.examples).toEqual([{ booking: { location: 'Athens', guests: 2 } }]);
  });

  it('rejects guests: 0 before the method runs', async () => {
    const store = new BookingStore();
    const bookHotel = toolsByName(new TravelTools(store)).get('book_hotel')!;
    await expect(bookHotel.call({ booking: { location: 'Athens', guests: 0 } })).rejects.toThrow(
      ToolValidationError,
    );
    await expect(bookHotel.call({ booking: { location: 'Athens', guests: 0 } })).rejects.toThrow(
      'booking.guests: must be >= 1',
    );
    expect(store.saved).toHaveLength(0);
  });

  it('makes an unnamed @Param DTO the whole argument object and injects the context', async () => {
    const search = toolsByName(new TravelTools()).get('search_documents')!;
    expect(search.inputSchema.required).toEqual(['query']);
    expect(search.inputSchema.properties!.limit).toMatchObject({ default: 10 });
    const context = new RunContext({ runId: 'run-1' });
    await expect(search.call({ query: 'tax' }, { context })).resolves.toEqual({
      query: 'tax',
      limit: 10,
      runId: 'run-1',
      isDto: true,
    });
  });

  it('describes parameters and fills defaults', () => {
    const greet = toolsByName(new TravelTools()).get('greet')!;
    expect(greet.inputSchema.properties).toEqual({
      name: { type: 'string', description: 'Who to greet' },
      excited: { type: 'boolean', default: false },
    });
    expect(greet.inputSchema.required).toEqual(['name']);
  });

  it('lets a subclass override a tool while keeping the others', async () => {
    class LoudTravelTools extends TravelTools {
      @Tool({ name: 'greet', description: 'Greet loudly' })
      override greet(@Param('name') name: string): string {
        return `HELLO ${name.toUpperCase()}`;
      }
    }
    const tools = toolsByName(new LoudTravelTools());
    expect([...tools.keys()].sort()).toEqual(['add', 'book_hotel', 'greet', 'search_documents']);
    expect(tools.get('greet')!.description).toBe('Greet loudly');
    await expect(tools.get('greet')!.call({ name: 'ada' })).resolves.toBe('HELLO ADA');
  });

  it('passes each parameter shape to the method, with `this` bound', async () => {
    class Shapes {
      readonly seen: unknown[][] = [];
      @Tool({ name: 'none', description: 'No parameters' })
      none(): string {
        this.seen.push([]);
        return 'none';
      }
      @Tool({ name: 'named', description: 'One named parameter' })
      named(@Param('city') city: string): string {
        this.seen.push([city]);
        return city;
      }
      @Tool({ name: 'whole', description: 'The whole argument object' })
      whole(@Param() args: WholeArgs): number {
        this.seen.push([args]);
        return args.count;
      }
      @Tool({ name: 'context_only', description: 'Only the context' })
      contextOnly(@Context() context: RunContext): string {
        this.seen.push([context]);
        return context.runId;
      }
      @Tool({ name: 'mixed', description: 'Context first, then a named parameter' })
      mixed(@Context() context: RunContext, @Param('city') city: string): string {
        this.seen.push([context, city]);
        return `${context.runId}:${city}`;
      }
    }
    const shapes = new Shapes();
    const tools = toolsByName(shapes);
    const context = new RunContext({ runId: 'run-7' });
    await expect(tools.get('none')!.call({})).resolves.toBe('none');
    await expect(tools.get('named')!.call({ city: 'Athens' })).resolves.toBe('Athens');
    await expect(tools.get('whole')!.call({ count: '3' })).resolves.toBe(3);
    await expect(tools.get('context_only')!.call({}, { context })).resolves.toBe('run-7');
    await expect(tools.get('mixed')!.call({ city: 'Oslo' }, { context })).resolves.toBe('run-7:Oslo');
    expect(shapes.seen).toEqual([[], ['Athens'], [{ count: 3 }], [context], [context, 'Oslo']]);
    expect(shapes.seen[2][0]).toBeInstanceOf(WholeArgs);
  });

  describe('declaration errors', () => {
    it('rejects @Param on a method without @Tool', () => {
      class Broken {
        method(@Param('x') x: string) {
          return x;
        }
      }
      expect(() => scanTools(new Broken())).toThrow(ToolDefinitionError);
      expect(() => scanTools(new Broken())).toThrow(
        /Broken\.method has @Param\/@Context parameters but no @Tool decorator/,
      );
    });

    it('rejects two tools with one name in one class', () => {
      class Twice {
        @Tool({ name: 'same', description: 'one' }) first() {
          return 1;
        }
        @Tool({ name: 'same', description: 'two' }) second() {
          return 2;
        }
      }
      expect(() => scanTools(new Twice())).toThrow(/declares two tools named 'same'/);
    });

    it('rejects an undecorated parameter', () => {
      class Undecorated {
        @Tool({ name: 'undecorated', description: 'x' }) run(_value: string) {
          return 1;
        }
      }
      expect(() => scanTools(new Undecorated())).toThrow(/Parameter #1 of Undecorated\.run has no decorator/);
    });

    it('rejects mixing an unnamed DTO parameter with named ones', () => {
      class Mixed {
        @Tool({ name: 'mixed', description: 'x' }) run(
          @Param() booking: BookingRequest,
          @Param('x') x: string,
        ) {
          return [booking, x];
        }
      }
      expect(() => scanTools(new Mixed())).toThrow(/mixes an unnamed @Param\(\)/);
    });

    it('rejects a parameter typed by a class without validation decorators', () => {
      class Shape {
        size = 1;
      }
      class UsesShape {
        @Tool({ name: 'shape', description: 'x' }) run(@Param('shape') shape: Shape) {
          return shape;
        }
      }
      expect(() => scanTools(new UsesShape())).toThrow(
        /parameter 'shape' is typed by Shape, which has no class-validator decorators/,
      );
    });

    it('rejects a class whose decorator metadata was not emitted', () => {
      // Built the way the TypeScript compiler does without emitDecoratorMetadata: no design:paramtypes.
      class NoMetadata {
        run(value: unknown) {
          return value;
        }
      }
      Tool({ name: 'no_metadata', description: 'x' })(
        NoMetadata.prototype,
        'run',
        Object.getOwnPropertyDescriptor(NoMetadata.prototype, 'run')!,
      );
      Param('value')(NoMetadata.prototype, 'run', 0);
      expect(() => scanTools(new NoMetadata())).toThrow(
        /^Tool 'no_metadata' \(NoMetadata\.run\): parameter 'value' \(#1\) has no type, because the class was compiled without decorator metadata/,
      );
    });

    it('rejects invalid names at decoration time', () => {
      expect(() => Tool({ name: 'has space', description: 'x' })).toThrow(/invalid name "has space"/);
      expect(() => Tool({ name: 'x'.repeat(65), description: 'x' })).toThrow(/65 characters long/);
      expect(() => Param('bad name')).toThrow(ToolDefinitionError);
      expect(() => Tool({ name: 'ok' } as never)).toThrow(/needs a description/);
    });

    it('rejects @Context and @Param on a constructor parameter', () => {
      expect(() => Context()(class {}, undefined, 0)).toThrow(/constructor parameter/);
      expect(() => Param('x')(class {}, undefined, 0)).toThrow(/constructor parameter/);
    });

    it('rejects scanning something that is not an instance', () => {
      expect(() => scanTools(null as never)).toThrow(/needs a class instance, got null/);
    });
  });
});
