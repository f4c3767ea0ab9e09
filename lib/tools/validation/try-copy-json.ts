import type { ValidationLimits } from './validation-limits';

/** What {@link tryCopyJson} returns when the value needs the full walk (which then reports the problem). */
export const NOT_COPIED: unique symbol = Symbol('not copied');

/**
 * Deep-copies plain JSON data within the limits, without bookkeeping: anything the full walk would report
 * (too deep, too many values, too long a string, a non-finite number, an unsafe key, not JSON data), and
 * anything unusual it would accept (an object whose prototype is not `Object.prototype` or null), returns
 * {@link NOT_COPIED} instead, so the fast path never decides on its own. Objects are copied with a spread
 * (V8 clones their shape at once) and then checked in place; symbol-keyed properties, which JSON never
 * carries, come along as they are (the full walk drops them; no schema can see them).
 */
export function tryCopyJson(value: unknown, limits: ValidationLimits): unknown {
  // The in-place checks iterate copies with for...in, which would also list enumerable properties someone
  // added to Object.prototype: then give up and let the walk (Object.keys) do it.
  if (!prototypeIsClean()) return NOT_COPIED;
  return new JsonCopier(limits).copy(value, 0);
}

/** An empty object: for...in lists nothing from it unless Object.prototype has enumerable properties. */
const PROBE: object = Object.freeze({});

/**
 * Whether Object.prototype has no enumerable property (nobody polluted it), so that for...in over a plain
 * object lists its own keys only. Checked on every use: pollution may happen at any time.
 */
export function prototypeIsClean(): boolean {
  for (const _inherited in PROBE) return false;
  return true;
}

/** How to build one DTO class while copying: its class and the plans of its nested DTO properties. */
export interface DtoBuildPlan {
  readonly target: new () => Record<string, unknown>;
  /** Nested DTO properties and their plans (recursive DTOs are never planned). */
  readonly nested: ReadonlyMap<string, DtoBuildPlan>;
  /**
   * A builder made for this class alone (see `compileDtoBuilder`), which does what
   * {@link JsonCopier.buildObject} does with property accesses V8 can specialize; absent where code cannot
   * be generated.
   */
  readonly build?: DtoBuilder;
}

/** Builds one DTO instance from a plain object (the copier already counted it and checked its depth). */
export type DtoBuilder = (source: object, depth: number, copier: JsonCopier) => unknown;

/**
 * Copies checked JSON data (see {@link tryCopyJson}); given a {@link DtoBuildPlan}, makes the object at that
 * position (or each object of an array there) an instance of the plan's class instead of a plain copy.
 */
export class JsonCopier {
  /** Values still allowed (`maxNodes` counted down); compiled DTO builders count their scalars here too. */
  nodesLeft: number;
  readonly maxDepth: number;
  readonly maxStringLength: number;

  constructor(limits: ValidationLimits) {
    this.nodesLeft = limits.maxNodes;
    this.maxDepth = limits.maxDepth;
    this.maxStringLength = limits.maxStringLength;
  }

  /**
   * Copies a value; `rootDtos` names properties of this (root) object to build as DTOs, `dto` makes this
   * object (or each object of this array) a DTO instance.
   */
  copy(
    value: unknown,
    depth: number,
    dto?: DtoBuildPlan,
    rootDtos?: ReadonlyMap<string, DtoBuildPlan>,
  ): unknown {
    if (--this.nodesLeft < 0) return NOT_COPIED;
    if (typeof value !== 'object') return this.scalar(value);
    if (value === null) return null;
    if (depth >= this.maxDepth) return NOT_COPIED;
    if (Array.isArray(value)) return this.copyArray(value, depth, dto);
    // A typed array is no JSON object even with its prototype swapped for Object.prototype: the walk decides.
    if (ArrayBuffer.isView(value)) return NOT_COPIED;
    if (!dto) return this.copyObject(value, depth, rootDtos);
    return dto.build ? dto.build(value, depth, this) : this.buildObject(value, depth, dto);
  }

  /** A scalar as it is, or NOT_COPIED for what JSON cannot carry (or the limits refuse). */
  private scalar(value: unknown): unknown {
    switch (typeof value) {
      case 'string':
        return value.length > this.maxStringLength ? NOT_COPIED : value;
      case 'boolean':
        return value;
      case 'number':
        return Number.isFinite(value) ? value : NOT_COPIED;
      default:
        return NOT_COPIED;
    }
  }

  private copyArray(value: readonly unknown[], depth: number, dto: DtoBuildPlan | undefined): unknown {
    if (Object.getPrototypeOf(value) !== Array.prototype) return NOT_COPIED;
    const result = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index += 1) {
      const item = this.copy(value[index], depth + 1, dto);
      if (item === NOT_COPIED) return NOT_COPIED;
      result[index] = item;
    }
    return result;
  }

  private copyObject(
    value: object,
    depth: number,
    dtos: ReadonlyMap<string, DtoBuildPlan> | undefined,
  ): unknown {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return NOT_COPIED;
    // A spread copies own enumerable properties as data (a `__proto__` key included, never the prototype).
    const result: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const key in result) {
      // The walk refuses these keys (a spread made `__proto__` an own data property, never the prototype).
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') return NOT_COPIED;
      const item = result[key];
      if (typeof item === 'object') {
        if (item === null) {
          if (--this.nodesLeft < 0) return NOT_COPIED;
          continue;
        }
        const copied = this.copy(item, depth + 1, dtos?.get(key));
        if (copied === NOT_COPIED) return NOT_COPIED;
        result[key] = copied;
      } else if (item === undefined) {
        // Like JSON: an undefined property is absent.
        delete result[key];
      } else {
        if (--this.nodesLeft < 0) return NOT_COPIED;
        if (this.scalar(item) === NOT_COPIED) return NOT_COPIED;
      }
    }
    return result;
  }

  /** A DTO instance holding a checked copy of each property (nested DTOs built the same way). */
  buildObject(value: object, depth: number, dto: DtoBuildPlan): unknown {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return NOT_COPIED;
    const source = value as Record<string, unknown>;
    const instance = new dto.target();
    for (const key in source) {
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') return NOT_COPIED;
      const item = source[key];
      if (typeof item !== 'object' || item === null) {
        // Like JSON: an undefined property is absent (the instance keeps its own, unset).
        if (item === undefined) continue;
        if (--this.nodesLeft < 0 || (item !== null && this.scalar(item) === NOT_COPIED)) return NOT_COPIED;
        instance[key] = item;
        continue;
      }
      const copied = this.copy(item, depth + 1, dto.nested.get(key));
      if (copied === NOT_COPIED) return NOT_COPIED;
      instance[key] = copied;
    }
    return instance;
  }
}
