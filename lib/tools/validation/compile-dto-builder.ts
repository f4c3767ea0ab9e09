import { NOT_COPIED } from './try-copy-json';
import type { DtoBuildPlan, DtoBuilder, JsonCopier } from './try-copy-json';

/** Keys the walk refuses: never a case of a compiled builder (the default branch gives up on them). */
const REFUSED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Builds the arguments object of a tool whose named properties are DTOs: what
 * `copier.copy(source, 0, undefined, dtos)` gives for a plain object (same keys in the same order, same
 * counting and give-ups), without symbol-keyed properties (which the full walk drops too). The caller counts
 * the object itself and checks the depth limit first.
 */
export type ArgsBuilder = (source: object, copier: JsonCopier) => unknown;

/**
 * Compiles a builder for one DTO class that does exactly what `JsonCopier.buildObject` does (same key order,
 * same limits, same give-ups), with one `case` per declared property: the property reads and writes are then
 * named and monomorphic, where the shared builder's keyed accesses go megamorphic across classes (about 4×
 * the cost). Names enter the code only as JSON string literals. Returns undefined when code generation is not
 * allowed (Ajv needs it as well; the shared builder is used then).
 */
export function compileDtoBuilder(plan: DtoBuildPlan, properties: readonly string[]): DtoBuilder | undefined {
  const factory = compileFactory('new Target()', properties, plan.nested);
  return factory?.(plan.target) as DtoBuilder | undefined;
}

/**
 * Compiles an {@link ArgsBuilder} for arguments whose properties `dtos` names are DTOs built by their plans
 * (one `case` each; every other key is copied as plain data). Undefined when code generation is not allowed.
 */
export function compileArgsBuilder(dtos: ReadonlyMap<string, DtoBuildPlan>): ArgsBuilder | undefined {
  const factory = compileFactory('{}', [...dtos.keys()], dtos);
  const build = factory?.(Object) as DtoBuilder | undefined;
  return build && ((source, copier) => build(source, 0, copier));
}

/**
 * Generates `function buildDto(source, depth, copier)`: checks the source's prototype, makes the result with
 * `make`, and copies each enumerable key in order, with a `case` per name of `properties` (nested plans built
 * through {@link buildNested}). Scalars are checked inline as `JsonCopier` checks them.
 */
function compileFactory(
  make: string,
  properties: readonly string[],
  nested: ReadonlyMap<string, DtoBuildPlan>,
): ((target: Function) => DtoBuilder) | undefined {
  const nestedPlans: DtoBuildPlan[] = [];
  const cases = properties
    .filter((name) => !REFUSED_KEYS.has(name))
    .map((name) => {
      const key = JSON.stringify(name);
      const plan = nested.get(name);
      let copyObject = 'const copied = copier.copy(item, depth + 1);';
      if (plan) {
        nestedPlans.push(plan);
        copyObject = `const copied = buildNested(item, depth + 1, copier, nestedPlans[${nestedPlans.length - 1}]);`;
      }
      return `      case ${key}: {
        const item = source[${key}];
        if (item === undefined) break;
        if (typeof item !== 'object' || item === null) {
${SCALAR_CHECK}
          result[${key}] = item;
          break;
        }
        ${copyObject}
        if (copied === NOT_COPIED) return NOT_COPIED;
        result[${key}] = copied;
        break;
      }`;
    });
  // Strict like the shared builder: a failed assignment throws instead of dropping the key.
  const body = `'use strict';
  return function buildDto(source, depth, copier) {
    // Reading \`__proto__\` first (a named load: its map check tells V8 the source's map) lets V8 fold the exact
    // check below, which otherwise is a runtime call of ~25 ns per object. A \`__proto__\` that lies (an own or
    // inherited property of that name) cannot change the decision: getPrototypeOf decides. (A Proxy's trap or
    // an own accessor of that name runs, as the copy's reads run theirs; a throw gives up.)
    void source.__proto__;
    const prototype = Object.getPrototypeOf(source);
    if (prototype !== Object.prototype && prototype !== null) return NOT_COPIED;
    const result = ${make};
    for (const key in source) {
      switch (key) {
${cases.join('\n')}
      default: {
        if (key === '__proto__' || key === 'constructor' || key === 'prototype') return NOT_COPIED;
        const item = source[key];
        if (item === undefined) break;
        if (typeof item !== 'object' || item === null) {
${SCALAR_CHECK}
          result[key] = item;
          break;
        }
        const copied = copier.copy(item, depth + 1);
        if (copied === NOT_COPIED) return NOT_COPIED;
        result[key] = copied;
      }
      }
    }
    return result;
  };`;
  try {
    const factory = new Function('Target', 'nestedPlans', 'NOT_COPIED', 'buildNested', body) as (
      target: Function,
      nestedPlans: readonly DtoBuildPlan[],
      notCopied: symbol,
      buildNested: (value: object, depth: number, copier: JsonCopier, plan: DtoBuildPlan) => unknown,
    ) => DtoBuilder;
    return (target) => factory(target, nestedPlans, NOT_COPIED, buildNested);
  } catch {
    return undefined;
  }
}

/**
 * `isScalar` written out for a non-object `item` (or null): counts it, and gives up on a string over the
 * limit, a non-finite number (`item - item` is NaN for NaN and ±Infinity) or anything JSON cannot carry.
 */
const SCALAR_CHECK = `          if (--copier.nodesLeft < 0) return NOT_COPIED;
          if (typeof item === 'string') {
            if (item.length > copier.maxStringLength) return NOT_COPIED;
          } else if (typeof item === 'number') {
            if (item - item !== 0) return NOT_COPIED;
          } else if (typeof item !== 'boolean' && item !== null) return NOT_COPIED;`;

/** Whether a non-null scalar is JSON data within the string limit (as `JsonCopier` checks scalars). */
export function isScalar(value: unknown, copier: { readonly maxStringLength: number }): boolean {
  switch (typeof value) {
    case 'string':
      return value.length <= copier.maxStringLength;
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    default:
      return false;
  }
}

/**
 * `copier.copy(value, depth, plan)` for an object value (already known not null) at a nested DTO property,
 * calling the nested builder directly for an object and for each object of an array: the same counting and
 * checks in the same order as `JsonCopier.copy` and `copyArray`.
 */
export function buildNested(value: object, depth: number, copier: JsonCopier, plan: DtoBuildPlan): unknown {
  const build = plan.build;
  if (!build) return copier.copy(value, depth, plan);
  if (--copier.nodesLeft < 0 || depth >= copier.maxDepth) return NOT_COPIED;
  if (!Array.isArray(value)) return ArrayBuffer.isView(value) ? NOT_COPIED : build(value, depth, copier);
  // Reading the length first lets V8 see the array's map and fold the prototype check (else a runtime call).
  const items = new Array<unknown>(value.length);
  if (Object.getPrototypeOf(value) !== Array.prototype) return NOT_COPIED;
  // The length is read again at every step, as copyArray does (an element's getter may change it).
  for (let index = 0; index < value.length; index += 1) {
    const item: unknown = value[index];
    let built: unknown;
    if (typeof item === 'object' && item !== null && !Array.isArray(item) && !ArrayBuffer.isView(item)) {
      if (--copier.nodesLeft < 0 || depth + 1 >= copier.maxDepth) return NOT_COPIED;
      built = build(item, depth + 1, copier);
    } else {
      built = copier.copy(item, depth + 1, plan);
    }
    if (built === NOT_COPIED) return NOT_COPIED;
    items[index] = built;
  }
  return items;
}
