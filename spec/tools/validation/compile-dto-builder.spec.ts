import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import fc from 'fast-check';
import { compileArgsBuilder, compileDtoBuilder } from '../../../lib/tools/validation/compile-dto-builder';
import { getDtoArgsPlan } from '../../../lib/tools/validation/try-build-dto-args';
import type { DtoBuildPlan } from '../../../lib/tools/validation/try-copy-json';
import { JsonCopier, NOT_COPIED } from '../../../lib/tools/validation/try-copy-json';
import { DEFAULT_VALIDATION_LIMITS } from '../../../lib/tools/validation/validation-limits';
import type { ValidationLimits } from '../../../lib/tools/validation/validation-limits';

class Stop {
  @IsString() city!: string;
  @IsInt() @Min(0) minutes!: number;
}

class Route {
  @IsString() name!: string;
  @IsOptional() @IsBoolean() express?: boolean;
  @ValidateNested({ each: true }) @Type(() => Stop) stops!: Stop[];
  @IsOptional() @ValidateNested() @Type(() => Stop) start?: Stop;
}

const plan = getDtoArgsPlan({ whole: Route, derived: { whole: true } })!.whole!;

/** The shared builder's answer for the same plan without its compiled builders. */
function withoutCompiled(target: DtoBuildPlan): DtoBuildPlan {
  const nested = new Map([...target.nested].map(([name, inner]) => [name, withoutCompiled(inner)]));
  return { target: target.target, nested };
}

function describeBuilt(value: unknown): unknown {
  if (value === NOT_COPIED) return 'NOT_COPIED';
  if (Array.isArray(value)) return value.map(describeBuilt);
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return {
      class: (Object.getPrototypeOf(value) as { constructor: Function }).constructor.name,
      own: Object.keys(record).map((key) => [key, describeBuilt(record[key])]),
    };
  }
  return value;
}

function build(target: DtoBuildPlan, value: unknown, limits: ValidationLimits): unknown {
  return new JsonCopier(limits).copy(value, 0, target);
}

const scalar = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY),
);
const key = fc.constantFrom(
  'city',
  'minutes',
  'name',
  'express',
  'stops',
  'start',
  'extra',
  'constructor',
  '__proto__',
);
const value: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.array(fc.tuple(key, tie('value')), { maxLength: 5 }).map((entries) => {
      const object: Record<string, unknown> = {};
      for (const [name, item] of entries)
        Object.defineProperty(object, name, {
          value: item,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return object;
    }),
  ),
})).value;
const limits = fc.record({
  maxNodes: fc.integer({ min: 1, max: 40 }),
  maxDepth: fc.integer({ min: 1, max: 6 }),
  maxStringLength: fc.integer({ min: 0, max: 6 }),
});

describe('compileDtoBuilder', () => {
  it('compiles a builder for every planned class', () => {
    expect(plan.build).toBeInstanceOf(Function);
    expect(plan.nested.get('stops')?.build).toBeInstanceOf(Function);
  });

  it('builds exactly what the shared builder builds, or gives up where it does', () => {
    const shared = withoutCompiled(plan);
    fc.assert(
      fc.property(value, limits, (input, bounds) => {
        const all = { ...DEFAULT_VALIDATION_LIMITS, ...bounds };
        expect(describeBuilt(build(plan, input, all))).toEqual(describeBuilt(build(shared, input, all)));
      }),
      { numRuns: 1000 },
    );
  });

  it('gives undefined where code cannot be generated, and the shared builder is used', () => {
    const spy = jest.spyOn(globalThis, 'Function').mockImplementation(() => {
      throw new EvalError('Code generation from strings disallowed for this context');
    });
    try {
      expect(
        compileDtoBuilder({ target: Stop as never, nested: new Map() }, ['city', 'minutes']),
      ).toBeUndefined();
    } finally {
      spy.mockRestore();
    }
    const sharedOnly = withoutCompiled(plan);
    const built = build(
      sharedOnly,
      { name: 'Coast', stops: [{ city: 'Athens', minutes: 0 }] },
      DEFAULT_VALIDATION_LIMITS,
    );
    expect(built).toBeInstanceOf(Route);
    expect((built as Route).stops[0]).toBeInstanceOf(Stop);
  });

  it('puts property names into the code only as string literals', () => {
    const names = ['a"b', "c'd", 'e\\f', 'g\u2028h', '}); throw new Error("injected"); ({'];
    const Odd = class {};
    const builder = compileDtoBuilder({ target: Odd as never, nested: new Map() }, names)!;
    const source = Object.fromEntries(names.map((name, index) => [name, index]));
    const built = builder(source, 0, new JsonCopier(DEFAULT_VALIDATION_LIMITS)) as Record<string, unknown>;
    expect(built).toBeInstanceOf(Odd);
    expect(names.map((name) => built[name])).toEqual([0, 1, 2, 3, 4]);
  });

  it('runs in strict mode like the shared builder: a refused assignment throws, never drops the key', () => {
    class Closed {
      name?: string;
      constructor() {
        Object.preventExtensions(this);
      }
    }
    const builder = compileDtoBuilder({ target: Closed as never, nested: new Map() }, ['name'])!;
    const copier = new JsonCopier(DEFAULT_VALIDATION_LIMITS);
    expect(builder({ name: 'a' }, 0, copier)).toEqual(Object.assign(new Closed(), { name: 'a' }));
    expect(() => builder({ name: 'a', extra: 1 }, 0, copier)).toThrow(TypeError);
  });
});

describe('compileArgsBuilder', () => {
  const dtos = new Map([
    ['route', plan],
    ['stop', plan.nested.get('stops')!],
  ]);
  const args = compileArgsBuilder(dtos)!;
  const sharedDtos = new Map([...dtos].map(([name, inner]) => [name, withoutCompiled(inner)]));

  it('builds the arguments object exactly as the shared copier does, or gives up where it does', () => {
    const root = fc.array(
      fc.tuple(fc.constantFrom('route', 'stop', 'note', 'constructor', '__proto__'), value),
      {
        maxLength: 4,
      },
    );
    fc.assert(
      fc.property(root, limits, (entries, bounds) => {
        const all = { ...DEFAULT_VALIDATION_LIMITS, ...bounds };
        const input: Record<string, unknown> = {};
        for (const [name, item] of entries)
          Object.defineProperty(input, name, {
            value: item,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        const compiledCopier = new JsonCopier(all);
        compiledCopier.nodesLeft -= 1;
        const built = all.maxDepth <= 0 ? NOT_COPIED : args(input, compiledCopier);
        const expected = new JsonCopier(all).copy(input, 0, undefined, sharedDtos);
        expect(describeBuilt(built)).toEqual(describeBuilt(expected));
        if (built !== NOT_COPIED) expect(Object.getPrototypeOf(built)).toBe(Object.prototype);
      }),
      { numRuns: 1000 },
    );
  });

  it('builds a root without a prototype, and gives up on a class instance', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, {
      stop: { city: 'Oslo', minutes: 1 },
      note: 'x',
    });
    const built = args(bare, new JsonCopier(DEFAULT_VALIDATION_LIMITS)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(built)).toBe(Object.prototype);
    expect(built.stop).toBeInstanceOf(Stop);
    expect(built.note).toBe('x');
    class Arguments {
      note = 'x';
    }
    expect(args(new Arguments(), new JsonCopier(DEFAULT_VALIDATION_LIMITS))).toBe(NOT_COPIED);
    expect(args(new Uint8Array([1]), new JsonCopier(DEFAULT_VALIDATION_LIMITS))).toBe(NOT_COPIED);
  });

  it('gives undefined where code cannot be generated', () => {
    const spy = jest.spyOn(globalThis, 'Function').mockImplementation(() => {
      throw new EvalError('Code generation from strings disallowed for this context');
    });
    try {
      expect(compileArgsBuilder(dtos)).toBeUndefined();
    } finally {
      spy.mockRestore();
    }
  });
});

describe('the prototype check of compiled builders', () => {
  const args = compileArgsBuilder(new Map([['stop', plan.nested.get('stops')!]]))!;
  const copier = () => new JsonCopier(DEFAULT_VALIDATION_LIMITS);
  const stop = plan.nested.get('stops')!.build!;

  it('builds from an object without a prototype', () => {
    const source = Object.assign(Object.create(null) as Record<string, unknown>, {
      city: 'Oslo',
      minutes: 5,
    });
    expect(stop(source, 0, copier())).toEqual(Object.assign(new Stop(), { city: 'Oslo', minutes: 5 }));
  });

  it('gives up on an object whose own __proto__ pretends to be Object.prototype', () => {
    class Hidden {
      city = 'Oslo';
    }
    const source = new Hidden();
    Object.defineProperty(source, '__proto__', { value: Object.prototype, enumerable: false });
    expect(stop(source, 0, copier())).toBe(NOT_COPIED);
    const inheritsLie = Object.create(
      Object.defineProperty({ minutes: 5 }, '__proto__', { value: Object.prototype, enumerable: false }),
    ) as object;
    expect(stop(inheritsLie, 0, copier())).toBe(NOT_COPIED);
    expect(args({ stop: inheritsLie }, copier())).toBe(NOT_COPIED);
  });
});
