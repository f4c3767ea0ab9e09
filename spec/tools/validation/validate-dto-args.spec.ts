import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsArray, IsDate, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import { getDtoModel } from '../../../lib/tools/schema/dto-model';
import { instantiateDto, validateDtoArgs } from '../../../lib/tools/validation/validate-dto-args';
import { BookingRequest, EvenBox, GeoPoint, Trip } from '../../fixtures/dto/booking.dto';

class Leg {
  @IsDate() @Type(() => Date) at!: Date;
  @IsString() city!: string;
}

class Plan {
  @ValidateNested({ each: true }) @Type(() => Leg) @IsArray() legs!: Leg[];
  @IsOptional() @ValidateNested() @Type(() => Leg) extra?: Leg;
}

class Guarded {
  @IsInt() count!: number;

  constructor() {
    throw new Error('built by a factory only');
  }
}

describe('instantiateDto', () => {
  it('builds nested instances, arrays of instances and Dates', () => {
    const plan = instantiateDto(getDtoModel(Plan), {
      legs: [{ at: '2024-01-01T10:00:00Z', city: 'Athens' }],
      extra: { at: '2024-01-02T00:00:00Z', city: 'Rome' },
    });
    expect(plan).toBeInstanceOf(Plan);
    const legs = plan.legs as Leg[];
    expect(legs[0]).toBeInstanceOf(Leg);
    expect(legs[0].at).toEqual(new Date('2024-01-01T10:00:00Z'));
    expect(plan.extra).toBeInstanceOf(Leg);
  });

  it('falls back to the prototype when the DTO constructor throws', () => {
    const guarded = instantiateDto(getDtoModel(Guarded), { count: 2 });
    expect(guarded).toBeInstanceOf(Guarded);
    expect(guarded.count).toBe(2);
  });

  it('keeps a __proto__ key as an own property', () => {
    const built = instantiateDto(
      getDtoModel(BookingRequest),
      JSON.parse('{"location":"Athens","__proto__":{"polluted":true}}'),
    );
    expect(Object.getPrototypeOf(built)).toBe(BookingRequest.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('validateDtoArgs', () => {
  it('rebuilds a whole-object DTO with nested DTOs', () => {
    const trip = validateDtoArgs(
      { name: 'Tour', start: { lat: 1, lon: 2 }, waypoints: [{ lat: 3, lon: 4 }] },
      { whole: Trip },
    );
    expect(trip).toBeInstanceOf(Trip);
    expect(trip.start).toBeInstanceOf(GeoPoint);
    expect((trip.waypoints as GeoPoint[])[0]).toBeInstanceOf(GeoPoint);
  });

  it('rebuilds named DTO properties and leaves the others as they are', () => {
    const result = validateDtoArgs(
      { booking: { location: 'Athens', guests: 2 }, note: 'x' },
      { properties: { booking: BookingRequest } },
    );
    expect(result.booking).toBeInstanceOf(BookingRequest);
    expect(result.note).toBe('x');
  });

  it('skips a named DTO property that is absent', () => {
    expect(validateDtoArgs({}, { properties: { booking: BookingRequest } })).toEqual({});
  });

  it('lists every class-validator problem with its path and the tool name', () => {
    let caught: unknown;
    try {
      validateDtoArgs(
        { box: { count: 3 }, other: { count: 5 } },
        { properties: { box: EvenBox, other: EvenBox } },
        'even_tool',
      );
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ToolValidationError);
    expect((caught as ToolValidationError).issues).toEqual([
      { path: 'box.count', message: 'count must be even' },
      { path: 'other.count', message: 'count must be even' },
    ]);
    expect((caught as ToolValidationError).message).toBe(
      "Invalid arguments for tool 'even_tool': box.count: count must be even; other.count: count must be even",
    );
  });

  it('reports nested problems with their full path', () => {
    expect(() => validateDtoArgs({ legs: [{ at: 'not a date', city: 'A' }] }, { whole: Plan })).toThrow(
      /legs\.0\.at: at must be a Date instance/,
    );
  });
});
