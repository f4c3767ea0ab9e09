/** Freezes a value and everything reachable from it (plain data only); returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const item of Object.values(value as object)) deepFreeze(item);
  return value;
}

/** Copies plain data deeply (class instances become plain objects of their own enumerable fields). */
export function copyData<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => copyData(item)) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as object)) {
    if (key === '__proto__') continue;
    result[key] = copyData(item);
  }
  return result as T;
}

/** Copies plain data deeply and freezes the copy, in one pass (own enumerable keys; `__proto__` dropped). */
export function freezeCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index += 1) copy[index] = freezeCopy(value[index]);
    return Object.freeze(copy) as T;
  }
  if (value instanceof Date) return Object.freeze(new Date(value.getTime())) as T;
  const copy: Record<string, unknown> = {};
  for (const key in value) {
    if (key === '__proto__' || !Object.prototype.hasOwnProperty.call(value, key)) continue;
    copy[key] = freezeCopy((value as Record<string, unknown>)[key]);
  }
  return Object.freeze(copy) as T;
}

/** A shared frozen empty record. */
export const EMPTY_RECORD: Readonly<Record<string, never>> = Object.freeze({});
