import 'reflect-metadata';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import { RunContext } from '../../../lib/runtime/run-context';
import { Context } from '../../../lib/tools/decorators/context.decorator';
import { Param } from '../../../lib/tools/decorators/param.decorator';
import { Tool } from '../../../lib/tools/decorators/tool.decorator';
import { scanTools } from '../../../lib/tools/registry/scan-tools';
import { BookingRequest, EvenBox, SearchQuery } from '../../fixtures/dto/booking.dto';

class ExplicitTools {
  @Tool({ name: 'explicit_class', description: 'Explicit DTO class', inputSchema: EvenBox })
  even(@Param() box: EvenBox): { isDto: boolean; count: number } {
    return { isDto: box instanceof EvenBox, count: box.count };
  }

  @Tool({
    name: 'explicit_json',
    description: 'Explicit JSON Schema over a DTO parameter',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', maxLength: 20 }, limit: { type: 'integer' } },
      required: ['query'],
    },
  })
  search(@Param() query: SearchQuery): { isDto: boolean; query: string } {
    return { isDto: query instanceof SearchQuery, query: query.query };
  }

  @Tool({
    name: 'explicit_named',
    description: 'Explicit JSON Schema with a named DTO parameter',
    inputSchema: {
      type: 'object',
      properties: { booking: { type: 'object', additionalProperties: true } },
      required: ['booking'],
    },
  })
  book(
    @Param('booking') booking: BookingRequest,
    @Context() context: RunContext,
  ): { isDto: boolean; runId: string } {
    return { isDto: booking instanceof BookingRequest, runId: context.runId };
  }
}

describe('scanTools', () => {
  describe('with an explicit inputSchema', () => {
    const tools = new Map(scanTools(new ExplicitTools()).map((tool) => [tool.name, tool]));

    it('uses the explicit schema as given', () => {
      expect(tools.get('explicit_json')!.inputSchema).toEqual({
        type: 'object',
        properties: { query: { type: 'string', maxLength: 20 }, limit: { type: 'integer' } },
        required: ['query'],
        additionalProperties: false,
        title: 'explicit_jsonInput',
      });
    });

    it('still gives the method an instance of an explicit DTO class and runs its custom validators', async () => {
      const tool = tools.get('explicit_class')!;
      await expect(tool.call({ count: '4' })).resolves.toEqual({ isDto: true, count: 4 });
      await expect(tool.call({ count: 3 })).rejects.toThrow(ToolValidationError);
      await expect(tool.call({ count: 3 })).rejects.toThrow(
        "Invalid arguments for tool 'explicit_class': count: count must be even",
      );
    });

    it('still gives the method an instance of its DTO parameter type', async () => {
      await expect(tools.get('explicit_json')!.call({ query: 'rust' })).resolves.toEqual({
        isDto: true,
        query: 'rust',
      });
      await expect(tools.get('explicit_json')!.call({ query: 'x'.repeat(21) })).rejects.toThrow(
        /query: must have at most 20 characters/,
      );
    });

    it('rebuilds a named DTO parameter and checks it with class-validator', async () => {
      const tool = tools.get('explicit_named')!;
      const context = new RunContext({ runId: 'run-9' });
      await expect(tool.call({ booking: { location: 'Athens', guests: 2 } }, { context })).resolves.toEqual({
        isDto: true,
        runId: 'run-9',
      });
      await expect(tool.call({ booking: { location: 'Athens', guests: 0 } }, { context })).rejects.toThrow(
        /booking\.guests: guests must not be less than 1/,
      );
    });
  });
});
