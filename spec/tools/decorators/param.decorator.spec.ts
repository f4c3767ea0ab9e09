import 'reflect-metadata';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import { Param } from '../../../lib/tools/decorators/param.decorator';
import { Tool } from '../../../lib/tools/decorators/tool.decorator';
import type { ParamOptions } from '../../../lib/tools/metadata/metadata-records';
import { scanTools } from '../../../lib/tools/registry/scan-tools';
import { BookingRequest, SearchQuery } from '../../fixtures/dto/booking.dto';

class Parameters {
  @Tool({ name: 'typed', description: 'Typed parameters' })
  typed(
    @Param('count', { type: 'integer', description: 'How many' }) count: number,
    @Param('ratio') ratio: number,
    @Param('label', { optional: true }) label: string | undefined,
    @Param('tags', { default: ['a'] }) tags: string[],
    @Param('mode', { schema: { type: 'string', enum: ['fast', 'slow'] } }) mode: string,
    @Param('booking') booking: BookingRequest,
    @Param('flag', { type: 'boolean', default: false }) flag: boolean,
  ): unknown {
    return { count, ratio, label, tags, mode, booking, flag };
  }

  @Tool({ name: 'whole', description: 'The DTO is the argument object' })
  whole(@Param() query: SearchQuery): SearchQuery {
    return query;
  }
}

describe('Param', () => {
  describe('arguments', () => {
    it.each(['', '1st', 'two words', 'dotted.name', 'x'.repeat(65), 'ümlaut'])(
      'throws ToolDefinitionError for the name %j',
      (name) => {
        expect(() => Param(name)).toThrow(ToolDefinitionError);
        expect(() => Param(name)).toThrow(
          `@Param(${JSON.stringify(name)}) has an invalid name: use letters, digits, _ and - (starting with a letter or _), e.g. @Param('max_results').`,
        );
      },
    );

    it('throws ToolDefinitionError for a name that is not a string', () => {
      expect(() => Param(42 as unknown as string)).toThrow(ToolDefinitionError);
      expect(() => Param(42 as unknown as string)).toThrow(/@Param\(42\) has an invalid name/);
    });

    it.each(['max_results', '_private', 'camelCase', 'with-dash', 'x'.repeat(64)])(
      'accepts the name %j',
      (name) => {
        expect(typeof Param(name)).toBe('function');
      },
    );

    it('throws ToolDefinitionError for options that are not an object', () => {
      expect(() => Param('a', null as unknown as ParamOptions)).toThrow(ToolDefinitionError);
      expect(() => Param('a', 'integer' as unknown as ParamOptions)).toThrow(
        '@Param("a") options must be an object, e.g. { type: \'integer\' }.',
      );
    });

    it('throws ToolDefinitionError for an unknown type', () => {
      expect(() => Param('a', { type: 'int' as ParamOptions['type'] })).toThrow(ToolDefinitionError);
      expect(() => Param('a', { type: 'int' as ParamOptions['type'] })).toThrow(
        '@Param("a") has the unknown type \'int\'; use one of string, number, integer, boolean, object, array, null, a class (e.g. { type: Booking }) or an array of one class (e.g. { type: [Booking] }).',
      );
    });

    it('throws ToolDefinitionError for an array type that is not one class', () => {
      const twoClasses = [BookingRequest, SearchQuery] as unknown as ParamOptions['type'];
      expect(() => Param('a', { type: twoClasses })).toThrow(ToolDefinitionError);
      expect(() => Param('a', { type: twoClasses })).toThrow(
        '@Param("a") has an array type with 2 entries; an array type names exactly one class, e.g. { type: [Booking] }.',
      );
      expect(() => Param('a', { type: ['string'] as unknown as ParamOptions['type'] })).toThrow(
        '@Param("a") has an array type with something that is not a class; an array type names exactly one class, e.g. { type: [Booking] }.',
      );
      expect(() => Param({ type: [BookingRequest] })).toThrow(
        "An unnamed @Param() is the whole argument object, which cannot be an array; give it a name, e.g. @Param('items', { type: [Item] }).",
      );
    });

    it('takes a class or [Class] as type, which wins over decorator metadata', async () => {
      class Explicit {
        @Tool({ name: 'explicit', description: 'x' })
        run(
          @Param('booking', { type: BookingRequest }) booking: unknown,
          @Param('queries', { type: [SearchQuery] }) queries: unknown,
          @Param('when', { type: Date, optional: true }) when: unknown,
        ): unknown[] {
          return [
            booking instanceof BookingRequest,
            (queries as unknown[]).map((query) => query instanceof SearchQuery),
            when,
          ];
        }
      }
      const [tool] = scanTools(new Explicit());
      expect(tool.inputSchema.properties!.booking).toMatchObject({
        type: 'object',
        additionalProperties: false,
      });
      expect(tool.inputSchema.properties!.queries).toMatchObject({
        type: 'array',
        items: { type: 'object' },
      });
      expect(tool.inputSchema.properties!.when).toEqual({ type: 'string', format: 'date-time' });
      const booking = { location: 'Athens', guests: 2 };
      const query = { query: 'hotels' };
      await expect(tool.call({ booking, queries: [query, query] })).resolves.toEqual([
        true,
        [true, true],
        undefined,
      ]);
    });

    it('takes @Param({ type }) as the whole argument object', () => {
      class Whole {
        @Tool({ name: 'whole', description: 'x' })
        run(@Param({ type: SearchQuery }) query: unknown): unknown {
          return query;
        }
      }
      const [tool] = scanTools(new Whole());
      expect(tool.inputSchema).toMatchObject({ properties: { query: { type: 'string' } } });
    });

    it('throws ToolDefinitionError for an unnamed @Param that is optional or has a default', () => {
      const message =
        'An unnamed @Param() is the whole argument object; it cannot be optional or have a default.';
      expect(() => Param(undefined, { optional: true })).toThrow(message);
      expect(() => Param(undefined, { default: {} })).toThrow(ToolDefinitionError);
    });

    it('never keeps a reference to the caller options', async () => {
      const options: ParamOptions = { type: 'integer', default: 3 };
      class Holder {
        @Tool({ name: 'holder', description: 'x' })
        run(@Param('n', options) n: number): number {
          return n;
        }
      }
      options.default = 99;
      options.type = 'string';
      const [tool] = scanTools(new Holder());
      expect(tool.inputSchema.properties!.n).toEqual({ type: 'integer', default: 3 });
      await expect(tool.call({})).resolves.toBe(3);
    });
  });

  describe('placement', () => {
    it('throws ToolDefinitionError on a constructor parameter', () => {
      const apply = () => Param('store')(class Service {}, undefined, 0);
      expect(apply).toThrow(ToolDefinitionError);
      expect(apply).toThrow(
        '@Param("store") is on a constructor parameter; put it on a @Tool method\'s parameter.',
      );
    });

    it('throws ToolDefinitionError on a parameter of a static method, recording nothing', () => {
      class Statics {
        static run(value: string): string {
          return value;
        }
      }
      const apply = () => Param('value')(Statics, 'run', 0);
      expect(apply).toThrow(ToolDefinitionError);
      expect(apply).toThrow(
        '@Param("value") is on a parameter of the static method Statics.run; tools must be instance methods.',
      );
      expect(Reflect.getOwnMetadataKeys(Function)).toEqual([]);
    });
  });

  describe('schema', () => {
    const schema = scanTools(new Parameters()).find((tool) => tool.name === 'typed')!.inputSchema;

    it('builds one property per named parameter, typed by design type or override', () => {
      expect(Object.keys(schema.properties!)).toEqual([
        'count',
        'ratio',
        'label',
        'tags',
        'mode',
        'booking',
        'flag',
      ]);
      expect(schema.properties!.count).toEqual({ type: 'integer', description: 'How many' });
      expect(schema.properties!.ratio).toEqual({ type: 'number' });
      expect(schema.properties!.mode).toEqual({ type: 'string', enum: ['fast', 'slow'] });
      expect(schema.properties!.booking).toMatchObject({
        type: 'object',
        required: ['location', 'guests'],
        additionalProperties: false,
      });
      expect(schema.properties!.flag).toEqual({ type: 'boolean', default: false });
    });

    it('leaves optional and defaulted parameters out of required', () => {
      expect(schema.required).toEqual(['count', 'ratio', 'mode', 'booking']);
      expect(schema.properties!.tags).toEqual({ type: 'array', items: {}, default: ['a'] });
    });

    it('fills defaults with fresh copies on every call', async () => {
      const tool = scanTools(new Parameters()).find((item) => item.name === 'typed')!;
      const args = { count: 1, ratio: 0.5, mode: 'fast', booking: { location: 'Athens', guests: 1 } };
      const first = (await tool.call(args)) as { tags: string[] };
      first.tags.push('mutated');
      const second = (await tool.call(args)) as { tags: string[]; label: unknown };
      expect(second.tags).toEqual(['a']);
      expect(second.label).toBeUndefined();
    });

    it('makes an unnamed DTO parameter the whole argument object', async () => {
      const tool = scanTools(new Parameters()).find((item) => item.name === 'whole')!;
      expect(tool.inputSchema).toMatchObject({
        type: 'object',
        required: ['query'],
        additionalProperties: false,
      });
      const result = await tool.call({ query: 'rust', limit: '5' });
      expect(result).toBeInstanceOf(SearchQuery);
      expect(result).toEqual(Object.assign(new SearchQuery(), { query: 'rust', limit: 5 }));
      await expect(tool.call({ query: 'rust', limit: 0 })).rejects.toThrow(ToolValidationError);
    });
  });

  describe('options that are not known', () => {
    it('accepts every option of ParamOptions at once', () => {
      // Required<…>: the compiler refuses this literal if ParamOptions gains or loses an option.
      const everyOption: Required<ParamOptions> = {
        type: 'integer',
        schema: { type: 'integer' },
        optional: true,
        description: 'How many',
        default: 1,
      };
      expect(() => Param('count', everyOption)).not.toThrow();
    });

    it.each([
      [
        { required: false },
        '@Param("count") option \'required\' is not known: parameters are required unless',
      ],
      [{ name: 'count' }, "option 'name' is not known: the name is @Param's first argument"],
      [{ optinal: true }, "option 'optinal' is not known; did you mean 'optional'?"],
      [{ minimum: 1 }, "option 'minimum' is not known; remove it"],
    ])('refuses %j with a ToolDefinitionError that names it', (options, message) => {
      expect(() => Param('count', options as ParamOptions)).toThrow(ToolDefinitionError);
      expect(() => Param('count', options as ParamOptions)).toThrow(message);
    });

    it('checks the options of an unnamed @Param too', () => {
      expect(() => Param({ type: SearchQuery, items: {} } as ParamOptions)).toThrow(
        '@Param("") option \'items\' is not known',
      );
    });
  });
});
