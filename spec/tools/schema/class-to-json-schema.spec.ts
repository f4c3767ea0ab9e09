import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { classToJsonSchema } from '../../../lib/tools/schema/class-to-json-schema';
import { ValidateNested } from 'class-validator';
import { BookingRequest, EvenBox, ExtendedTrip, SearchQuery, TreeNode, Trip } from '../../fixtures/dto/booking.dto';

describe('classToJsonSchema', () => {
  it('derives a closed object schema with types, required fields and descriptions', () => {
    expect(classToJsonSchema(BookingRequest)).toEqual({
      type: 'object',
      properties: {
        location: { type: 'string', description: 'City of the hotel' },
        guests: { type: 'integer', minimum: 1 },
      },
      required: ['location', 'guests'],
      additionalProperties: false,
    });
  });

  it('covers nested DTOs, arrays of DTOs, enums, lengths, patterns, formats and optional fields', () => {
    const schema = classToJsonSchema(Trip);
    const properties = schema.properties!;
    expect(schema.required).toEqual(['name', 'start', 'waypoints']);
    expect(properties.name).toEqual({ type: 'string', minLength: 2, maxLength: 40 });
    expect(properties.start).toEqual(classToJsonSchema(Trip).properties!.start);
    expect(properties.start).toMatchObject({ type: 'object', additionalProperties: false, required: ['lat', 'lon'] });
    expect(properties.start.properties!.lat).toEqual({ type: 'number', minimum: -90, maximum: 90 });
    expect(properties.waypoints).toMatchObject({ type: 'array', minItems: 1, maxItems: 5, items: { type: 'object', required: ['lat', 'lon'] } });
    expect(properties.room).toEqual({ type: 'string', enum: ['single', 'double'] });
    expect(properties.priority).toEqual({ type: 'integer', enum: [0, 1, 2] });
    expect(properties.cabin).toEqual({ type: 'string', enum: ['economy', 'business'] });
    expect(properties.airport).toEqual({ type: 'string', pattern: '^[A-Z]{3}$' });
    expect(properties.email).toEqual({ type: 'string', format: 'email' });
    expect(properties.website).toEqual({ type: 'string', format: 'uri' });
    expect(properties.reference).toEqual({ type: 'string', format: 'uuid' });
    expect(properties.departure).toEqual({ type: 'string', format: 'date-time' });
    expect(properties.refundable).toEqual({ type: 'boolean' });
    expect(properties.tags).toEqual({ type: 'array', items: { type: 'string' } });
  });

  it('includes the properties of base DTO classes', () => {
    const schema = classToJsonSchema(ExtendedTrip);
    expect(schema.required).toEqual(expect.arrayContaining(['name', 'start', 'waypoints', 'budget']));
    expect(schema.properties!.budget).toEqual({ type: 'integer', minimum: 0 });
  });

  it('turns property initializers into defaults and leaves those properties optional', () => {
    const schema = classToJsonSchema(SearchQuery);
    expect(schema.properties!.limit).toEqual({ type: 'integer', minimum: 1, maximum: 50, default: 10 });
    expect(schema.required).toEqual(['query']);
  });

  it('keeps a recursive DTO as a reference instead of looping', () => {
    const schema = classToJsonSchema(TreeNode);
    expect(schema.properties!.children).toEqual({ type: 'array', items: { $ref: '#' } });
  });

  it('returns a new object each time, so callers cannot corrupt the cache', () => {
    const first = classToJsonSchema(EvenBox, { title: 'box' });
    first.properties!.count.type = 'string';
    expect(classToJsonSchema(EvenBox).properties!.count.type).toBe('integer');
    expect(first.title).toBe('box');
  });

  it('throws ToolDefinitionError for a class without class-validator decorators', () => {
    class Plain {
      value = 1;
    }
    expect(() => classToJsonSchema(Plain)).toThrow(ToolDefinitionError);
    expect(() => classToJsonSchema(Plain)).toThrow(/Plain has no class-validator decorators/);
  });

  it('throws ToolDefinitionError naming @Type when an array of DTOs has no element class', () => {
    class Holder {
      @ValidateNested({ each: true }) items!: BookingRequest[];
    }
    expect(() => classToJsonSchema(Holder)).toThrow(/Holder\.items .*@Type\(\(\) => ItemClass\)/);
  });
});
