import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayUnique,
  Equals,
  IsArray,
  IsDate,
  IsEnum,
  IsIn,
  IsInstance,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { Description } from '../../../lib/tools/decorators/description.decorator';
import { classToJsonSchema } from '../../../lib/tools/schema/class-to-json-schema';
import { validateToolArgs } from '../../../lib/tools/validation/validate-tool-args';
import {
  BookingRequest,
  EvenBox,
  ExtendedTrip,
  GeoPoint,
  SearchQuery,
  TreeNode,
  Trip,
} from '../../fixtures/dto/booking.dto';

enum Direction {
  Down = -1,
  Level = 0,
  Up = 1,
}

enum Mixed {
  Letter = 'a',
  Number = 2,
}

enum Digits {
  One = '1',
  Two = '2',
}

class Item {
  @IsString() @Description('Item name') name!: string;
}

class Catalog {
  @IsEnum(Direction) direction!: Direction;
  @IsEnum(Mixed) mixed!: Mixed;
  @IsEnum(Digits) digits!: Digits;
  @IsInstance(Item, { each: true }) @IsArray() items!: Item[];
  @IsOptional() @ValidateNested() @Type(() => Item) featured?: Item;
  @IsOptional() @IsIn([1, 2, 3]) rating?: number;
  @IsOptional() @IsEnum(Direction, { each: true }) @IsArray() moves?: Direction[];
  @IsOptional() @IsInt({ each: true }) @Min(1, { each: true }) @IsArray() counts?: number[];
}

class Constraints {
  @IsString() @MinLength(2) @MaxLength(5) short!: string;
  @IsString() @IsNotEmpty() filled!: string;
  @IsNumber() @IsPositive() positive!: number;
  @IsOptional() @Matches(/^abc$/i) caseless?: string;
  @IsOptional() @IsDate() @Type(() => Date) when?: Date;
  @IsOptional() @IsArray() @ArrayUnique() unique?: string[];
  @IsOptional() @Equals('fixed') fixed?: string;
}

class BaseRecord {
  @IsInt() @Min(0) @Description('Record id') id!: number;
  @IsString() label!: string;
}

class NamedRecord extends BaseRecord {
  @IsInt() @Max(99) rank!: number;
}

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
    expect(properties.start).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['lat', 'lon'],
    });
    expect(properties.start.properties!.lat).toEqual({ type: 'number', minimum: -90, maximum: 90 });
    expect(properties.waypoints).toMatchObject({
      type: 'array',
      minItems: 1,
      maxItems: 5,
      items: { type: 'object', required: ['lat', 'lon'] },
    });
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

  describe('enums and IsIn', () => {
    it('lists the members of a numeric enum with negative values, without reverse mappings', () => {
      expect(classToJsonSchema(Catalog).properties!.direction).toEqual({ type: 'integer', enum: [-1, 0, 1] });
    });

    it('keeps a string enum whose values look like numbers as strings', () => {
      expect(classToJsonSchema(Catalog).properties!.digits).toEqual({ type: 'string', enum: ['1', '2'] });
    });

    it('leaves the type open for a mixed enum', () => {
      expect(classToJsonSchema(Catalog).properties!.mixed).toEqual({ enum: ['a', 2] });
    });

    it('types IsIn from its values and applies each: true enums to the items', () => {
      const properties = classToJsonSchema(Catalog).properties!;
      expect(properties.rating).toEqual({ type: 'integer', enum: [1, 2, 3] });
      expect(properties.moves).toEqual({ type: 'array', items: { type: 'integer', enum: [-1, 0, 1] } });
      expect(properties.counts).toEqual({ type: 'array', items: { type: 'integer', minimum: 1 } });
    });

    it('accepts numeric enum members as numbers or integer strings and rejects reverse-mapping names', () => {
      const schema = classToJsonSchema(Catalog);
      const base = { mixed: 'a', digits: '1', items: [] };
      expect(validateToolArgs({ ...base, direction: -1 }, schema).direction).toBe(-1);
      expect(validateToolArgs({ ...base, direction: '1' }, schema).direction).toBe(1);
      expect(() => validateToolArgs({ ...base, direction: 'Up' }, schema)).toThrow(
        /direction: must be an integer/,
      );
      expect(() => validateToolArgs({ ...base, direction: 2 }, schema)).toThrow(
        /direction: must be one of -1, 0, 1/,
      );
    });
  });

  describe('nested DTOs', () => {
    it('derives a nested DTO from design:type without @Type', () => {
      expect(classToJsonSchema(Trip).properties!.start).toEqual({
        type: 'object',
        properties: classToJsonSchema(GeoPoint).properties,
        required: ['lat', 'lon'],
        additionalProperties: false,
      });
    });

    it('derives an array of DTOs from @Type, and from @IsInstance(each) without @Type', () => {
      const itemSchema = {
        type: 'object',
        properties: { name: { type: 'string', description: 'Item name' } },
        required: ['name'],
        additionalProperties: false,
      };
      expect(classToJsonSchema(Catalog).properties!.items).toEqual({ type: 'array', items: itemSchema });
      expect(classToJsonSchema(Trip).properties!.waypoints.items).toEqual(classToJsonSchema(GeoPoint));
    });

    it('derives an optional nested DTO from @Type and leaves it out of required', () => {
      const schema = classToJsonSchema(Catalog);
      expect(schema.properties!.featured).toMatchObject({ type: 'object', required: ['name'] });
      expect(schema.required).toEqual(['direction', 'mixed', 'digits', 'items']);
    });
  });

  describe('constraints', () => {
    it('maps lengths, IsNotEmpty, IsPositive, IsDate, ArrayUnique and Equals', () => {
      const properties = classToJsonSchema(Constraints).properties!;
      expect(properties.short).toEqual({ type: 'string', minLength: 2, maxLength: 5 });
      expect(properties.filled).toEqual({ type: 'string', minLength: 1 });
      expect(properties.positive).toEqual({ type: 'number', exclusiveMinimum: 0 });
      expect(properties.when).toEqual({ type: 'string', format: 'date-time' });
      expect(properties.unique).toEqual({ type: 'array', items: {}, uniqueItems: true });
      expect(properties.fixed).toEqual({ type: 'string', const: 'fixed' });
    });

    it('leaves out a pattern whose flags JSON Schema cannot express (class-validator still enforces it)', () => {
      expect(classToJsonSchema(Constraints).properties!.caseless).toEqual({ type: 'string' });
    });
  });

  describe('inheritance', () => {
    it('lists base-class properties first, with their descriptions', () => {
      const schema = classToJsonSchema(NamedRecord);
      expect(Object.keys(schema.properties!)).toEqual(['id', 'label', 'rank']);
      expect(schema.required).toEqual(['id', 'label', 'rank']);
      expect(schema.properties!.id).toEqual({ type: 'integer', minimum: 0, description: 'Record id' });
      expect(schema.properties!.rank).toEqual({ type: 'integer', maximum: 99 });
    });

    it('leaves the base class schema unchanged', () => {
      expect(Object.keys(classToJsonSchema(BaseRecord).properties!)).toEqual(['id', 'label']);
    });
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
