import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsDate, IsInt, IsString, Length, Min, ValidateNested } from 'class-validator';
import { Agent } from '../../../lib/agents/agent';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import { Param } from '../../../lib/tools/decorators/param.decorator';
import { Tool } from '../../../lib/tools/decorators/tool.decorator';
import { getDtoArgsPlan, tryBuildDtoArgs } from '../../../lib/tools/validation/try-build-dto-args';
import { NOT_COPIED } from '../../../lib/tools/validation/try-copy-json';
import { DEFAULT_VALIDATION_LIMITS } from '../../../lib/tools/validation/validation-limits';

class Leg {
  @IsString() from!: string;
  @IsInt() @Min(0) minutes!: number;
}

class Journey {
  @IsString() name!: string;
  @ValidateNested({ each: true }) @Type(() => Leg) legs!: Leg[];
}

class WithInitializer {
  @IsInt() count: number = 1;
}

class WithConstructorArgument {
  @IsInt() count!: number;
  constructor(seed: { count: number }) {
    this.count = seed.count;
  }
}

class WithAccessor {
  @IsInt() count!: number;
}
Object.defineProperty(WithAccessor.prototype, 'count', { get: () => 5, configurable: true });

class WithGetter {
  @IsString() text!: string;
  get shout(): string {
    return this.text.toUpperCase();
  }
}

const setterCalls: unknown[] = [];
class WithSetter {
  @IsString() text!: string;
  set tag(value: unknown) {
    setterCalls.push(value);
  }
}

class Base {
  get inherited(): number {
    return 1;
  }
}
class WithInheritedAccessor extends Base {
  @IsInt() count!: number;
}

class Branch {
  @IsString() label!: string;
  @ValidateNested({ each: true }) @Type(() => Branch) children!: Branch[];
}

class WithRecursiveNested {
  @ValidateNested() @Type(() => Branch) root!: Branch;
}

class Sealed {
  @IsString() name!: string;
  constructor() {
    Object.seal(this);
  }
}

class WithDate {
  @IsDate() @Type(() => Date) when!: Date;
}

class WithLength {
  @IsString() @Length(1, 5) code!: string;
}

class WithBadNested {
  @ValidateNested() @Type(() => WithInitializer) inner!: WithInitializer;
}

const derivedWhole = (whole: Function) => ({ whole, derived: { whole: true } });

describe('getDtoArgsPlan', () => {
  it('plans DTOs with derived, fully covered schemas and empty fresh instances, nested ones included', () => {
    expect(getDtoArgsPlan(derivedWhole(Journey))).not.toBeNull();
    expect(
      getDtoArgsPlan({
        properties: { journey: Journey, leg: Leg },
        derived: { properties: ['journey', 'leg'] },
      }),
    ).not.toBeNull();
  });

  it.each([
    ['an initializer', WithInitializer],
    ['a constructor that needs an argument', WithConstructorArgument],
    ['an accessor on the prototype', WithAccessor],
    ['an undeclared getter', WithGetter],
    ['an undeclared setter', WithSetter],
    ['an accessor inherited from a base class', WithInheritedAccessor],
    ['a Date property (rebuilt from a string after the check)', WithDate],
    ['strings counted differently by the schema and validator.js', WithLength],
    ['a nested DTO that does not qualify', WithBadNested],
    ['recursion (its schema uses $ref)', Branch],
    ['a recursive nested DTO', WithRecursiveNested],
    ['instances that cannot take new keys', Sealed],
  ])('leaves a DTO with %s to the long way', (_case, dto) => {
    expect(getDtoArgsPlan(derivedWhole(dto))).toBeNull();
  });

  it('leaves a binding whose schema was not derived from the DTO to the long way', () => {
    expect(getDtoArgsPlan({ whole: Journey })).toBeNull();
    expect(
      getDtoArgsPlan({ properties: { journey: Journey, leg: Leg }, derived: { properties: ['journey'] } }),
    ).toBeNull();
  });
});

describe('tryBuildDtoArgs', () => {
  const wholePlan = getDtoArgsPlan(derivedWhole(Journey))!;
  const propertyPlan = getDtoArgsPlan({
    properties: { journey: Journey },
    derived: { properties: ['journey'] },
  })!;

  it('builds the instances while copying, leaving the input untouched', () => {
    const input = { name: 'Coast', legs: [{ from: 'Athens', minutes: 90 }] };
    const built = tryBuildDtoArgs(input, wholePlan, DEFAULT_VALIDATION_LIMITS) as Journey;
    expect(built).toBeInstanceOf(Journey);
    expect(built.legs[0]).toBeInstanceOf(Leg);
    expect(built).toEqual(
      Object.assign(new Journey(), { name: 'Coast', legs: [Object.assign(new Leg(), input.legs[0])] }),
    );
    expect(built.legs).not.toBe(input.legs);
    expect(Object.getPrototypeOf(input.legs[0])).toBe(Object.prototype);
  });

  it('builds named DTO properties and copies the rest plainly', () => {
    const input = { journey: { name: 'Coast', legs: [] }, note: { free: ['form'] } };
    const built = tryBuildDtoArgs(input, propertyPlan, DEFAULT_VALIDATION_LIMITS) as Record<string, unknown>;
    expect(built.journey).toBeInstanceOf(Journey);
    expect(built.note).toEqual({ free: ['form'] });
    expect(built.note).not.toBe(input.note);
    expect(Object.getPrototypeOf(built)).toBe(Object.prototype);
  });

  it('builds the arguments object the same way where code cannot be generated', () => {
    const spy = jest.spyOn(globalThis, 'Function').mockImplementation(() => {
      throw new EvalError('Code generation from strings disallowed for this context');
    });
    let shared: ReturnType<typeof getDtoArgsPlan>;
    try {
      shared = getDtoArgsPlan({ properties: { journey: Journey }, derived: { properties: ['journey'] } });
    } finally {
      spy.mockRestore();
    }
    expect(shared?.root).toBeUndefined();
    expect(propertyPlan.root).toBeInstanceOf(Function);
    const input = {
      journey: { name: 'Coast', legs: [{ from: 'Athens', minutes: 90 }] },
      note: [1, 'a'],
      x: null,
    };
    const viaShared = tryBuildDtoArgs(input, shared!, DEFAULT_VALIDATION_LIMITS) as Record<string, unknown>;
    const viaCompiled = tryBuildDtoArgs(input, propertyPlan, DEFAULT_VALIDATION_LIMITS) as Record<
      string,
      unknown
    >;
    expect(viaShared).toEqual(viaCompiled);
    expect(viaShared.journey).toBeInstanceOf(Journey);
    expect(Object.keys(viaShared)).toEqual(['journey', 'note', 'x']);
    const limits = { ...DEFAULT_VALIDATION_LIMITS, maxNodes: 8 };
    expect(tryBuildDtoArgs(input, shared!, limits)).toBe(NOT_COPIED);
    expect(tryBuildDtoArgs(input, propertyPlan, limits)).toBe(NOT_COPIED);
  });

  it('keeps values of the wrong shape as they are, for the schema check to refuse', () => {
    const built = tryBuildDtoArgs({ journey: 'Coast' }, propertyPlan, DEFAULT_VALIDATION_LIMITS);
    expect(built).toEqual({ journey: 'Coast' });
    expect(tryBuildDtoArgs({ name: 'x', legs: [null, 3] }, wholePlan, DEFAULT_VALIDATION_LIMITS)).toEqual(
      Object.assign(new Journey(), { name: 'x', legs: [null, 3] }),
    );
  });

  it.each([
    ['an unsafe key inside a DTO', JSON.parse('{"name":"x","legs":[{"__proto__":{"polluted":true}}]}')],
    ['a class instance where a DTO goes', { name: 'x', legs: [new Leg()] }],
    ['a function value', { name: () => 'x', legs: [] }],
    ['a non-finite number', { name: 'x', legs: [{ from: 'a', minutes: Number.NaN }] }],
    [
      'a typed array with a swapped prototype where a DTO goes',
      { name: 'x', legs: [Object.setPrototypeOf(new Uint8Array([1]), Object.prototype) as object] },
    ],
  ])('gives up on %s (the walk decides)', (_case, input) => {
    expect(tryBuildDtoArgs(input, wholePlan, DEFAULT_VALIDATION_LIMITS)).toBe(NOT_COPIED);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('gives up when reading the input throws (the walk then reports it)', () => {
    const input = {
      name: 'x',
      get legs(): unknown {
        throw new Error('getter failed');
      },
    };
    expect(tryBuildDtoArgs(input, wholePlan, DEFAULT_VALIDATION_LIMITS)).toBe(NOT_COPIED);
    expect(tryBuildDtoArgs({ journey: input }, propertyPlan, DEFAULT_VALIDATION_LIMITS)).toBe(NOT_COPIED);
  });

  it('gives up past the node and depth limits', () => {
    const input = { name: 'x', legs: [{ from: 'a', minutes: 1 }] };
    expect(tryBuildDtoArgs(input, wholePlan, { ...DEFAULT_VALIDATION_LIMITS, maxNodes: 5 })).toBe(NOT_COPIED);
    expect(tryBuildDtoArgs(input, wholePlan, { ...DEFAULT_VALIDATION_LIMITS, maxNodes: 6 })).toBeInstanceOf(
      Journey,
    );
    expect(tryBuildDtoArgs(input, wholePlan, { ...DEFAULT_VALIDATION_LIMITS, maxDepth: 2 })).toBe(NOT_COPIED);
    const named = { journey: input };
    expect(tryBuildDtoArgs(named, propertyPlan, { ...DEFAULT_VALIDATION_LIMITS, maxDepth: 0 })).toBe(
      NOT_COPIED,
    );
    expect(tryBuildDtoArgs(named, propertyPlan, { ...DEFAULT_VALIDATION_LIMITS, maxNodes: 0 })).toBe(
      NOT_COPIED,
    );
    expect(tryBuildDtoArgs(named, propertyPlan, DEFAULT_VALIDATION_LIMITS)).toEqual({
      journey: Object.assign(new Journey(), {
        name: 'x',
        legs: [Object.assign(new Leg(), { from: 'a', minutes: 1 })],
      }),
    });
  });
});

describe('DTOs with accessors, through a tool', () => {
  it('refuses an input key that names a getter or setter with ToolValidationError, running no setter', async () => {
    const agent = new Agent({ card: { name: 'notes', description: 'Notes', url: 'runtime://notes' } });
    agent.addToolset(new NoteTools());
    await expect(agent.callTool('save', { text: 'hi', shout: 'x' })).rejects.toThrow(ToolValidationError);
    await expect(agent.callTool('save', { text: 'hi', shout: 'x' })).rejects.toThrow(
      /shout: is not an accepted field/,
    );
    await expect(agent.callTool('tag', { item: { text: 'hi', tag: 'evil' } })).rejects.toThrow(
      /item\.tag: is not an accepted field/,
    );
    expect(setterCalls).toEqual([]);
    await expect(agent.callTool('save', { text: 'hi' })).resolves.toBe('HI');
  });
});

class NoteTools {
  @Tool({ name: 'save', description: 'Saves a note' })
  save(@Param() note: WithGetter): string {
    return note.shout;
  }

  @Tool({ name: 'tag', description: 'Tags an item' })
  tag(@Param('item') item: WithSetter): string {
    return item.text;
  }
}
