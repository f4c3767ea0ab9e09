import 'reflect-metadata';
import { IsInt, IsString } from 'class-validator';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { Param } from '../../../lib/tools/decorators/param.decorator';
import { Tool } from '../../../lib/tools/decorators/tool.decorator';
import type { SchemaManifest } from '../../../lib/tools/manifest/schema-manifest';
import { inferInputSchema, inferOutputSchema } from '../../../lib/tools/schema/infer-schema';
import { BookingRequest, SearchQuery } from '../../fixtures/dto/booking.dto';
import { TravelTools } from '../../fixtures/toolsets/travel-tools';

class Receipt {
  @IsString() id!: string;
  @IsInt() total!: number;
}

class ShopTools {
  @Tool({ name: 'checkout', description: 'Pay for the basket' })
  checkout(@Param('basket_id') basketId: string): Receipt {
    const receipt = new Receipt();
    receipt.id = basketId;
    receipt.total = 0;
    return receipt;
  }

  @Tool({ name: 'ping', description: 'Check the shop answers' })
  ping(): void {}

  @Tool({
    name: 'explicit',
    description: 'Explicit schemas',
    inputSchema: { type: 'object', properties: { x: { type: 'number' } } },
    outputSchema: { type: 'boolean' },
  })
  explicit(): boolean {
    return true;
  }

  notATool(): string {
    return '';
  }
}

describe('inferInputSchema', () => {
  it('infers the seed add schema from [Class, method]', () => {
    expect(inferInputSchema([TravelTools, 'add'], { title: 'addInput' })).toEqual({
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'integer' } },
      required: ['a', 'b'],
      additionalProperties: false,
      title: 'addInput',
    });
  });

  it('nests a DTO parameter and uses an unnamed DTO parameter as the whole object', () => {
    const booking = inferInputSchema([TravelTools, 'bookHotel'], { title: 'book_hotelInput' });
    expect(booking.properties!.booking).toMatchObject({
      type: 'object',
      required: ['location', 'guests'],
      additionalProperties: false,
    });
    expect(booking.required).toEqual(['booking']);
    const search = inferInputSchema([TravelTools, 'search'], { title: 'searchInput' });
    expect(search).toMatchObject({
      type: 'object',
      required: ['query'],
      additionalProperties: false,
      title: 'searchInput',
    });
    expect(search.properties).toHaveProperty('limit');
  });

  it('keeps parameter descriptions and defaults', () => {
    const schema = inferInputSchema([TravelTools, 'greet'], { title: 'greetInput' });
    expect(schema.properties).toEqual({
      name: { type: 'string', description: 'Who to greet' },
      excited: { type: 'boolean', default: false },
    });
    expect(schema.required).toEqual(['name']);
  });

  it('uses an explicit @Tool inputSchema, normalized', () => {
    expect(inferInputSchema([ShopTools, 'explicit'], { title: 'T' })).toEqual({
      type: 'object',
      properties: { x: { type: 'number' } },
      required: [],
      additionalProperties: false,
      title: 'T',
    });
  });

  it('infers a DTO class and titles it', () => {
    expect(inferInputSchema(BookingRequest, { title: 'BookingInput' })).toEqual({
      type: 'object',
      properties: {
        location: { type: 'string', description: 'City of the hotel' },
        guests: { type: 'integer', minimum: 1 },
      },
      required: ['location', 'guests'],
      additionalProperties: false,
      title: 'BookingInput',
    });
  });

  it('returns a new object each time', () => {
    const first = inferInputSchema([TravelTools, 'add'], { title: 'one' });
    first.properties!.a.type = 'string';
    expect(inferInputSchema([TravelTools, 'add'], { title: 'two' }).properties!.a.type).toBe('integer');
  });

  it('throws ToolDefinitionError for a method that is not a @Tool', () => {
    expect(() => inferInputSchema([ShopTools, 'notATool'], { title: 'T' })).toThrow(ToolDefinitionError);
    expect(() => inferInputSchema([ShopTools, 'notATool'], { title: 'T' })).toThrow(
      'ShopTools.notATool is not a @Tool method; decorate it with @Tool({ name, description }).',
    );
    expect(() => inferInputSchema([ShopTools, 'missing'], { title: 'T' })).toThrow(
      /ShopTools\.missing is not a @Tool method/,
    );
  });

  it('throws ToolDefinitionError for a class that is not a DTO', () => {
    class Plain {}
    expect(() => inferInputSchema(Plain, { title: 'T' })).toThrow(ToolDefinitionError);
    expect(() => inferInputSchema(Plain, { title: 'T' })).toThrow(
      "Plain is not a DTO class; pass a class-validator DTO or [Class, 'method'].",
    );
  });
});

describe('inferOutputSchema', () => {
  it('infers number from the return type of add', () => {
    expect(inferOutputSchema([TravelTools, 'add'], { title: 'addOutput' })).toEqual({
      type: 'number',
      title: 'addOutput',
    });
  });

  it('infers a DTO return type as a closed object schema', () => {
    expect(inferOutputSchema([ShopTools, 'checkout'], { title: 'checkoutOutput' })).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, total: { type: 'integer' } },
      required: ['id', 'total'],
      additionalProperties: false,
      title: 'checkoutOutput',
    });
  });

  it('returns null when the return type says nothing (void, Promise, interfaces), never a placeholder', () => {
    expect(inferOutputSchema([ShopTools, 'ping'], { title: 'pingOutput' })).toBeNull();
    expect(inferOutputSchema([TravelTools, 'bookHotel'], { title: 'book_hotelOutput' })).toBeNull();
  });

  it("takes the T of Promise<T> from a manifest's output schema", () => {
    const manifest: SchemaManifest = {
      version: 1,
      tools: {
        'TravelTools.bookHotel': {
          outputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        },
      },
    };
    expect(inferOutputSchema([TravelTools, 'bookHotel'], { title: 'book_hotelOutput', manifest })).toEqual({
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
      title: 'book_hotelOutput',
    });
  });

  it('uses an explicit @Tool outputSchema', () => {
    expect(inferOutputSchema([ShopTools, 'explicit'], { title: 'T' })).toEqual({
      type: 'boolean',
      title: 'T',
    });
  });

  it('infers a DTO class', () => {
    expect(inferOutputSchema(SearchQuery, { title: 'Q' })).toMatchObject({
      type: 'object',
      required: ['query'],
      title: 'Q',
    });
  });

  it('throws ToolDefinitionError for a method that is not a @Tool and a class that is not a DTO', () => {
    expect(() => inferOutputSchema([ShopTools, 'notATool'], { title: 'T' })).toThrow(ToolDefinitionError);
    expect(() => inferOutputSchema(String, { title: 'T' })).toThrow(
      "String is not a DTO class; pass a class-validator DTO or [Class, 'method'].",
    );
  });
});
