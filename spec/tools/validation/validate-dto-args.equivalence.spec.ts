import 'reflect-metadata';
import * as classValidator from 'class-validator';
import fc from 'fast-check';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import type { NativeTool } from '../../../lib/tools/native-tool';
import { scanTools } from '../../../lib/tools/registry/scan-tools';
import { getDtoSchemaCoverage } from '../../../lib/tools/validation/dto-schema-coverage';
import { getCompiledValidator } from '../../../lib/tools/validation/compiled-validator';
import { getDtoArgsPlan } from '../../../lib/tools/validation/try-build-dto-args';
import { validateDtoArgs } from '../../../lib/tools/validation/validate-dto-args';
import type { DtoBinding } from '../../../lib/tools/validation/validate-dto-args';
import { validateToolArgs } from '../../../lib/tools/validation/validate-tool-args';
import {
  BookingRequest,
  EvenBox,
  GeoPoint,
  SearchQuery,
  TreeNode,
  Trip,
} from '../../fixtures/dto/booking.dto';
import { CoveredTrip, DtoEquivalenceTools, Passenger } from '../../fixtures/dto/schema-covered.dto';
import { TravelTools } from '../../fixtures/toolsets/travel-tools';

const RUNS = { numRuns: 300 };

type Outcome = { ok: true; value: unknown } | { ok: false; error: string; issues: unknown; message: string };

/** The value with every object's class, so that instances (not only their fields) are compared. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value instanceof Date) return { date: value.getTime() };
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return {
      class: (Object.getPrototypeOf(value) as { constructor?: Function } | null)?.constructor?.name ?? null,
      fields: Object.fromEntries(Object.keys(record).map((key) => [key, shape(record[key])])),
    };
  }
  return value;
}

function outcome(run: () => unknown): Outcome {
  try {
    return { ok: true, value: shape(run()) };
  } catch (error) {
    if (!(error instanceof ToolValidationError)) throw error;
    return { ok: false, error: error.name, issues: error.issues, message: error.message };
  }
}

function bindingOf(tool: NativeTool): DtoBinding {
  return (tool as unknown as { dto: DtoBinding }).dto;
}

/** The reference: the schema stage, then class-validator on every DTO (the path before the fast one). */
function throughClassValidator(tool: NativeTool, input: unknown): Outcome {
  return outcome(() =>
    validateDtoArgs(
      validateToolArgs(input, tool.inputSchema, { toolName: tool.name }),
      bindingOf(tool),
      tool.name,
      {
        classValidator: 'always',
      },
    ),
  );
}

const tools = new Map(
  [...scanTools(new DtoEquivalenceTools()), ...scanTools(new TravelTools())].map((tool) => [tool.name, tool]),
);
function tool(name: string): NativeTool {
  return tools.get(name)!;
}

// Values at and around every boundary, of the wrong type, coercible, and strings on which JSON Schema and
// validator.js count or match differently (a variation selector, an astral character). Each field draws
// mostly from its first `accepted` values, so that both accepted and refused arguments are common.
const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
const field = <T>(values: readonly T[], accepted: number) =>
  fc.oneof(
    { arbitrary: pick(values.slice(0, accepted)), weight: 8 },
    { arbitrary: pick(values.slice(accepted)), weight: 1 },
  );
const anything = [null, 5, '5', true, 'yes', [], {}];
const mostly = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary, weight: 12 }, { arbitrary: pick(anything), weight: 1 });
const record = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T, requiredKeys: (keyof T)[]) =>
  fc.record(fields, { requiredKeys: requiredKeys as never });

const point = record(
  { lat: field([0, 90, -90.5, '45', 91, 'north', null], 4), lon: field([0, 180, 12.5, '7', -181], 4) },
  ['lat', 'lon'],
);
const passenger = mostly(
  record(
    {
      name: field(['Ada', 'A', 'x'.repeat(12), 'é😀', 'a\uFE0F', 'x'.repeat(13), '', 7], 4),
      age: field([0, 36, 120, '40', 121, -1, 2.5, 'old'], 4),
      seat: field(['AB12', null, 'ab12', 'AB123', 'ÅB12', 'AB12\uFE0F', 3], 2),
    },
    ['name', 'age'],
  ),
);
const coveredTrip = record(
  {
    name: field(['Tour', 'ab', 'x'.repeat(20), 'é😀', 'ab\uFE0F', 'a\uFE0F', 'A', 'x'.repeat(21), 9], 4),
    price: field([1, 2.5, '3', 0, -2, 'x', null], 3),
    room: field(['single', 'double', 'triple', 0], 2),
    priority: field([0, 2, null, '1', 3, 'Low'], 4),
    cabin: field(['economy', 'business', null, 'first', 2], 3),
    version: field(['v1', null, 'v2'], 2),
    refundable: field([true, false, 'yes', 'true', 1, 2, null], 5),
    note: field(['n', null, 'a\uFE0F', '', 3], 3),
    passengers: mostly(fc.array(passenger, { minLength: 1, maxLength: 3 })),
    start: mostly(point),
    nights: field([[1, 2], ['2'], null, [1, 1], [0], [], [1.5], 3], 3),
    stops: field([1, 9, '3', null, 10, 0], 4),
  },
  ['name', 'price', 'room', 'refundable', 'passengers'],
);
const trip = record(
  {
    name: field(['Tour', 'ab\uFE0F', 'A'], 2),
    start: mostly(point),
    waypoints: mostly(fc.array(point, { minLength: 1, maxLength: 6 })),
    room: field(['single', null, 'triple'], 2),
    priority: field([0, 2, 5, 'High'], 2),
    cabin: field(['economy', 'coach'], 1),
    airport: field(['ATH', 'ath', 'ATHX', 'ÅTH'], 1),
    email: field(['ada@example.com', 'not an email'], 1),
    website: field(['https://example.com', 'nope'], 1),
    reference: field(['2b1e4a58-4f1c-4a8e-9c3e-0d6f5b2a7c91', 'ref'], 1),
    departure: field(['2024-01-01T10:00:00Z', 'tomorrow'], 1),
    refundable: field([true, 'no', 0], 2),
    tags: field([['a'], [], [1], 'a'], 2),
  },
  ['name', 'start', 'waypoints'],
);
const search = record(
  {
    query: field(['q', 'x'.repeat(100), 'é😀', 'a\uFE0F', '', 'q'.repeat(101), 3], 4),
    limit: field([1, 50, '10', null, 51, 0, 2.5], 4),
  },
  ['query'],
);
const tree: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
  node: record(
    {
      label: field(['root', 'a\uFE0F', 3, null], 2),
      children: fc.oneof(
        { depthSize: 'small' },
        { arbitrary: fc.array(tie('node'), { maxLength: 2 }), weight: 4 },
        { arbitrary: pick(anything), weight: 1 },
      ),
    },
    ['label'],
  ),
})).node;
const bookingArgument = mostly(
  record({ location: field(['Athens', 'é😀', 1], 2), guests: field([1, '2', 0, 2.5, 'many'], 2) }, [
    'location',
    'guests',
  ]),
);
const booking = record(
  {
    booking: bookingArgument,
    box: mostly(record({ count: field([2, '4', 3, 'x', null], 2) }, ['count'])),
    tree,
  },
  ['booking'],
);
const hotel = record({ booking: bookingArgument }, ['booking']);
const route = record({ points: mostly(fc.array(point, { maxLength: 3 })), trip: coveredTrip }, [
  'points',
  'trip',
]);

const plot = record({ points: mostly(fc.array(point, { maxLength: 3 })), booking: bookingArgument }, [
  'points',
  'booking',
]);

const cases: { name: string; inputs: fc.Arbitrary<unknown> }[] = [
  { name: 'locate', inputs: point },
  { name: 'plot', inputs: plot },
  { name: 'covered_trip', inputs: coveredTrip },
  { name: 'trip', inputs: trip },
  { name: 'search', inputs: search },
  { name: 'book', inputs: booking },
  { name: 'route', inputs: route },
  { name: 'book_hotel', inputs: hotel },
  { name: 'search_documents', inputs: search },
];

describe('validateDtoArgs', () => {
  describe('without class-validator for covered DTOs (item 3 of issue 17)', () => {
    it('decides which fixture DTOs the derived schema covers', () => {
      for (const dto of [CoveredTrip, Passenger, GeoPoint, BookingRequest, SearchQuery, TreeNode])
        expect(getDtoSchemaCoverage(dto)).toMatchObject({ complete: true });
      for (const dto of [Trip, EvenBox]) expect(getDtoSchemaCoverage(dto)).toMatchObject({ complete: false });
    });

    it('binds derived schemas, so the fast path applies to them', () => {
      expect(bindingOf(tool('covered_trip')).derived).toEqual({ whole: true });
      expect(bindingOf(tool('book')).derived).toEqual({ properties: ['booking', 'box', 'tree'] });
      expect(bindingOf(tool('route')).derived).toEqual({ properties: ['points', 'trip'] });
    });

    it('builds the DTOs while copying only where nothing else is needed', () => {
      for (const name of ['locate', 'plot', 'book_hotel']) {
        expect(getDtoArgsPlan(bindingOf(tool(name)))).not.toBeNull();
        expect(getCompiledValidator(tool(name).inputSchema).plain).toBe(true);
      }
      // An initializer (CoveredTrip.stops), strings counted differently (lengths, patterns), a custom validator.
      for (const name of ['covered_trip', 'route', 'book', 'search', 'trip'])
        expect(getDtoArgsPlan(bindingOf(tool(name)))).toBeNull();
      const located = tool('locate').validateArgs({ lat: 45, lon: 7 });
      expect(located).toBeInstanceOf(GeoPoint);
      expect(located).toEqual(Object.assign(new GeoPoint(), { lat: 45, lon: 7 }));
      const plotted = tool('plot').validateArgs({
        points: [{ lat: 1, lon: 2 }],
        booking: { location: 'Athens', guests: 2 },
      }) as { points: GeoPoint[]; booking: BookingRequest };
      expect(plotted.points[0]).toBeInstanceOf(GeoPoint);
      expect(plotted.booking).toBeInstanceOf(BookingRequest);
      expect(Object.keys(plotted.booking)).toEqual(['location', 'guests']);
    });

    it.each(cases)(
      'gives $name the same instances and the same issues as class-validator',
      ({ name, inputs }) => {
        const target = tool(name);
        const seen = { accepted: 0, refused: 0 };
        fc.assert(
          fc.property(inputs, (input) => {
            const reference = throughClassValidator(target, input);
            expect(outcome(() => target.validateArgs(input))).toEqual(reference);
            seen[reference.ok ? 'accepted' : 'refused'] += 1;
          }),
          RUNS,
        );
        // Both sides of the boundary were exercised, not only refusals.
        expect(seen.accepted).toBeGreaterThan(3);
        expect(seen.refused).toBeGreaterThan(3);
      },
    );

    it('still finds the failures only class-validator can see (custom validator, formats)', () => {
      expect(
        outcome(() =>
          tool('book').validateArgs({ booking: { location: 'A', guests: 1 }, box: { count: 3 } }),
        ),
      ).toEqual({
        ok: false,
        error: 'ToolValidationError',
        issues: [{ path: 'box.count', message: 'count must be even' }],
        message: expect.stringContaining("tool 'book'"),
      });
      // Trip has formats: its schema checks them too, and class-validator still runs after it.
      const spy = jest.spyOn(classValidator, 'validateSync');
      try {
        tool('trip').validateArgs({
          name: 'Tour',
          start: { lat: 1, lon: 2 },
          waypoints: [{ lat: 1, lon: 2 }],
        });
        expect(spy).toHaveBeenCalledTimes(1);
      } finally {
        spy.mockRestore();
      }
    });

    it('skips class-validator for a covered DTO and runs it for strings the schema counts differently', () => {
      const spy = jest.spyOn(classValidator, 'validateSync');
      try {
        const trip = {
          name: 'Tour',
          price: 1,
          room: 'single',
          refundable: true,
          passengers: [{ name: 'Ada', age: 3 }],
        };
        expect(tool('covered_trip').validateArgs(trip)).toBeInstanceOf(CoveredTrip);
        expect(spy).not.toHaveBeenCalled();
        // 'a\uFE0F' is two code points for JSON Schema but one character for validator.js: class-validator decides.
        expect(() => tool('covered_trip').validateArgs({ ...trip, name: 'a\uFE0F' })).toThrow(
          expect.objectContaining({
            issues: [{ path: 'name', message: 'name must be longer than or equal to 2 characters' }],
          }),
        );
        expect(spy).toHaveBeenCalledTimes(1);
      } finally {
        spy.mockRestore();
      }
    });
  });
});
