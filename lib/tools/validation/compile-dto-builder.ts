import { NOT_COPIED } from './try-copy-json';
import type { DtoBuildPlan, DtoBuilder, JsonCopier } from './try-copy-json';

/** Keys the walk refuses: never a case of a compiled builder (the default branch gives up on them). */
const REFUSED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Compiles a builder for one DTO class that does exactly what `JsonCopier.buildObject` does (same key order,
 * same limits, same give-ups), with one `case` per declared property: the property reads and writes are then
 * named and monomorphic, where the shared builder's keyed accesses go megamorphic across classes (about 4×
 * the cost). Names enter the code only as JSON string literals. Returns undefined when code generation is not
 * allowed (Ajv needs it as well; the shared builder is used then).
 */
export function compileDtoBuilder(plan: DtoBuildPlan, properties: readonly string[]): DtoBuilder | undefined {
  const nestedPlans: DtoBuildPlan[] = [];
  const cases = properties
    .filter((name) => !REFUSED_KEYS.has(name))
    .map((name) => {
      const key = JSON.stringify(name);
      const nested = plan.nested.get(name);
      let copyObject = 'const copied = copier.copy(item, depth + 1);';
      if (nested) {
        nestedPlans.push(nested);
        copyObject = `const copied = buildNested(item, depth + 1, copier, nestedPlans[${nestedPlans.length - 1}]);`;
      }
      return `      case ${key}: {
        const item = source[${key}];
        if (item === undefined) break;
        if (typeof item !== 'object' || item === null) {
          if (--copier.nodesLeft < 0 || (item !== null && !isScalar(item, copier))) return NOT_COPIED;
          instance[${key}] = item;
          break;
        }
        ${copyObject}
        if (copied === NOT_COPIED) return NOT_COPIED;
        instance[${key}] = copied;
        break;
      }`;
    });
  // Strict like the shared builder: a failed assignment throws instead of dropping the key.
  const body = `'use strict';
  return function buildDto(source, depth, copier) {
    const prototype = Object.getPrototypeOf(source);
    if (prototype !== Object.prototype && prototype !== null) return NOT_COPIED;
    const instance = new Target();
    for (const key in source) {
      switch (key) {
${cases.join('\n')}
      default: {
        if (key === '__proto__' || key === 'constructor' || key === 'prototype') return NOT_COPIED;
        const item = source[key];
        if (item === undefined) break;
        if (typeof item !== 'object' || item === null) {
          if (--copier.nodesLeft < 0 || (item !== null && !isScalar(item, copier))) return NOT_COPIED;
          instance[key] = item;
          break;
        }
        const copied = copier.copy(item, depth + 1);
        if (copied === NOT_COPIED) return NOT_COPIED;
        instance[key] = copied;
      }
      }
    }
    return instance;
  };`;
  try {
    const factory = new Function('Target', 'nestedPlans', 'NOT_COPIED', 'isScalar', 'buildNested', body) as (
      target: Function,
      nestedPlans: readonly DtoBuildPlan[],
      notCopied: symbol,
      isScalar: (value: unknown, copier: { readonly maxStringLength: number }) => boolean,
      buildNested: (value: object, depth: number, copier: JsonCopier, plan: DtoBuildPlan) => unknown,
    ) => DtoBuilder;
    return factory(plan.target, nestedPlans, NOT_COPIED, isScalar, buildNested);
  } catch {
    return undefined;
  }
}

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
  if (!Array.isArray(value)) return build(value, depth, copier);
  if (Object.getPrototypeOf(value) !== Array.prototype) return NOT_COPIED;
  const items = new Array<unknown>(value.length);
  for (let index = 0; index < value.length; index += 1) {
    const item: unknown = value[index];
    let built: unknown;
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
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
