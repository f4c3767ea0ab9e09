import type { ValidationState } from './validation-state';
import { joinPath } from './validation-state';

/** Keys that could reach an object's prototype when assigned naively. */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Describes a value's JSON type for messages (`integer`, `array`, `null`, `Date`…). */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== null && prototype !== Object.prototype) return prototype.constructor?.name ?? 'object';
    return 'object';
  }
  return typeof value;
}

/** Whether a value is a plain data object (not an array, a Date, a Map, a Buffer…). */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (value instanceof Date || value instanceof Map || value instanceof Set || value instanceof RegExp)
    return false;
  return !ArrayBuffer.isView(value);
}

/** Sets an own data property, even for keys such as `__proto__`. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * Deep-copies untrusted JSON data that no schema constrains, enforcing the depth, size and key rules.
 * Returns the copy; problems are recorded on `state`.
 */
export function copyJsonValue(value: unknown, path: string, depth: number, state: ValidationState): unknown {
  if (!state.countNode(path)) return undefined;
  switch (typeof value) {
    case 'string':
      if (value.length > state.limits.maxStringLength) {
        state.addIssue(path, `must be at most ${state.limits.maxStringLength} characters long`);
      }
      return value;
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) state.addIssue(path, 'must be a finite number');
      return value;
    case 'object':
      break;
    default:
      state.addIssue(path, `must be JSON data, got ${typeof value}`);
      return undefined;
  }
  if (value === null) return null;
  if (depth >= state.limits.maxDepth) {
    state.addIssue(path, `is nested deeper than ${state.limits.maxDepth} levels`);
    return undefined;
  }
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index += 1) {
      copy[index] = copyJsonValue(value[index], joinPath(path, index), depth + 1, state);
    }
    return copy;
  }
  if (!isPlainRecord(value)) {
    state.addIssue(path, `must be JSON data, got ${describeType(value)}`);
    return undefined;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (item === undefined) continue;
    if (UNSAFE_KEYS.has(key)) {
      state.addIssue(joinPath(path, key), `the key '${key}' is not accepted`);
      continue;
    }
    copy[key] = copyJsonValue(item, joinPath(path, key), depth + 1, state);
  }
  return copy;
}
