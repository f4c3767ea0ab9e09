import { getDtoModel } from '../schema/dto-model';
import type { DtoModel } from '../schema/dto-model';
import { buildNested, compileArgsBuilder, compileDtoBuilder, isScalar } from './compile-dto-builder';
import type { ArgsBuilder } from './compile-dto-builder';
import { getDtoSchemaCoverage } from './dto-schema-coverage';
import { JsonCopier, NOT_COPIED, prototypeIsClean } from './try-copy-json';
import type { DtoBuildPlan } from './try-copy-json';
import type { DtoBinding } from './validate-dto-args';
import type { ValidationLimits } from './validation-limits';

/** Where a binding's DTOs sit in the arguments: the whole object, or named properties. */
export interface DtoArgsPlan {
  readonly whole: DtoBuildPlan | undefined;
  readonly properties: ReadonlyMap<string, DtoBuildPlan>;
  /** The compiled builder of the arguments object when `properties` names DTOs (absent without codegen). */
  readonly root?: ArgsBuilder;
}

const classPlans = new WeakMap<Function, DtoBuildPlan | null>();
const bindingPlans = new WeakMap<DtoBinding, DtoArgsPlan | null>();

/**
 * The plan for building a binding's DTOs while the arguments are copied, or null when some DTO of it must go
 * the long way (copy, check, rebuild, maybe class-validator). A DTO qualifies when its input schema was derived
 * from it (`binding.derived`), its derived schema expresses every class-validator constraint and compares
 * strings the same way (see `getDtoSchemaCoverage`), it has no `Date` properties (rebuilt from strings after
 * the check), and a fresh instance holds nothing but its declared properties, unset (no initializers, no
 * constructor arguments, no accessors, read-only or enumerable members on its prototypes): then the instance
 * the copy builds is the one the rebuild would make, and the schema check sees exactly the arguments'
 * values. (The constructor then runs before the check, also for arguments the check refuses.)
 */
export function getDtoArgsPlan(binding: DtoBinding): DtoArgsPlan | null {
  let plan = bindingPlans.get(binding);
  if (plan === undefined) {
    plan = planBinding(binding);
    bindingPlans.set(binding, plan);
  }
  return plan;
}

function planBinding(binding: DtoBinding): DtoArgsPlan | null {
  if (binding.whole) {
    const whole = binding.derived?.whole === true ? planClass(binding.whole, new Set()) : null;
    return whole ? { whole, properties: new Map() } : null;
  }
  const properties = new Map<string, DtoBuildPlan>();
  for (const [name, dtoClass] of Object.entries(binding.properties ?? {})) {
    if (binding.derived?.properties?.includes(name) !== true) return null;
    const plan = planClass(dtoClass, new Set());
    if (!plan) return null;
    properties.set(name, plan);
  }
  return { whole: undefined, properties, root: compileArgsBuilder(properties) };
}

function planClass(dtoClass: Function, inProgress: Set<Function>): DtoBuildPlan | null {
  const cached = classPlans.get(dtoClass);
  if (cached !== undefined) return cached;
  const coverage = getDtoSchemaCoverage(dtoClass);
  const model = getDtoModel(dtoClass);
  if (!coverage.complete || coverage.checksStrings || model.dates.size > 0 || !startsEmpty(model)) {
    classPlans.set(dtoClass, null);
    return null;
  }
  inProgress.add(dtoClass);
  const nested = new Map<string, DtoBuildPlan>();
  let qualifies = true;
  for (const [name, entry] of model.nested) {
    const nestedClass = entry.model().target;
    // A recursive DTO (its derived schema uses $ref, which the fast path never takes) goes the long way.
    const nestedPlan = inProgress.has(nestedClass) ? null : planClass(nestedClass, inProgress);
    if (!nestedPlan) {
      qualifies = false;
      break;
    }
    nested.set(name, nestedPlan);
  }
  inProgress.delete(dtoClass);
  let plan: DtoBuildPlan | null = null;
  if (qualifies) {
    const base = { target: dtoClass as new () => Record<string, unknown>, nested };
    plan = { ...base, build: compileDtoBuilder(base, [...model.properties.keys()]) };
  }
  classPlans.set(dtoClass, plan);
  return plan;
}

/** Whether `new Dto()` works without arguments and gives only its declared properties, unset. */
function startsEmpty(model: DtoModel): boolean {
  let instance: Record<string, unknown>;
  try {
    instance = new (model.target as new () => Record<string, unknown>)();
  } catch {
    return false;
  }
  // The copy adds the input's keys: a sealed or frozen instance would refuse them.
  if (!Object.isExtensible(instance)) return false;
  for (const key of Reflect.ownKeys(instance)) {
    if (typeof key !== 'string' || !model.properties.has(key)) return false;
    const descriptor = Object.getOwnPropertyDescriptor(instance, key);
    if (!descriptor || !('value' in descriptor) || descriptor.value !== undefined || !descriptor.writable)
      return false;
  }
  // Nothing inherited may answer for a property, and for...in must list own keys only.
  for (const key of model.properties.keys()) if (key in model.target.prototype) return false;
  for (const _inherited in Object.create(model.target.prototype) as object) return false;
  // The copy assigns input keys to the instance: no accessor (a setter would run on unchecked input and keep
  // the key from the schema check) and no read-only member may sit anywhere between it and Object.prototype.
  for (
    let prototype: object | null = model.target.prototype as object;
    prototype !== null && prototype !== Object.prototype;
    prototype = Object.getPrototypeOf(prototype) as object | null
  ) {
    for (const key of Reflect.ownKeys(prototype)) {
      const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
      if (descriptor && (!('value' in descriptor) || descriptor.writable !== true)) return false;
    }
  }
  return true;
}

/**
 * Copies the arguments like `tryCopyJson`, building the binding's DTO instances in place of their plain
 * copies; NOT_COPIED when anything needs the long way.
 */
export function tryBuildDtoArgs(value: unknown, plan: DtoArgsPlan, limits: ValidationLimits): unknown {
  if (!prototypeIsClean()) return NOT_COPIED;
  const copier = new JsonCopier(limits);
  try {
    if (plan.whole) return copier.copy(value, 0, plan.whole);
    if (typeof value !== 'object' || value === null || Array.isArray(value) || ArrayBuffer.isView(value))
      return copier.copy(value, 0, undefined, plan.properties);
    if (--copier.nodesLeft < 0 || copier.maxDepth <= 0) return NOT_COPIED;
    return plan.root ? plan.root(value, copier) : buildRoot(value, plan.properties, copier);
  } catch {
    // An assignment the instance refused (a key a frozen prototype holds read-only), a getter that threw: the
    // full walk decides (and reports what it finds).
    return NOT_COPIED;
  }
}

/**
 * The arguments object with its DTO properties built (the object itself already counted): what
 * `copier.copy(value, 0, undefined, dtos)` gives (same keys in the same order, same counting and give-ups),
 * without the spread-then-patch of a plain copy, and without symbol-keyed properties (which the full walk drops
 * too). The shared twin of the compiled `plan.root`, used where code cannot be generated.
 */
export function buildRoot(
  value: object,
  dtos: ReadonlyMap<string, DtoBuildPlan>,
  copier: JsonCopier,
): unknown {
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return NOT_COPIED;
  const source = value as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const key in source) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') return NOT_COPIED;
    const item = source[key];
    if (item === undefined) continue;
    if (typeof item !== 'object' || item === null) {
      if (--copier.nodesLeft < 0 || (item !== null && !isScalar(item, copier))) return NOT_COPIED;
      result[key] = item;
      continue;
    }
    const dto = dtos.get(key);
    const copied = dto ? buildNested(item, 1, copier, dto) : copier.copy(item, 1);
    if (copied === NOT_COPIED) return NOT_COPIED;
    result[key] = copied;
  }
  return result;
}
