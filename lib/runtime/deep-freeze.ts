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
  const keys = Object.keys(value);
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index];
    if (key !== '__proto__') copy[key] = freezeCopy((value as Record<string, unknown>)[key]);
  }
  return Object.freeze(copy) as T;
}

/**
 * Deep equality of plain data (own enumerable keys, order ignored; prototypes ignored, so a DTO instance
 * equals the plain object with the same fields; Dates compare by time).
 */
export function isEqualData(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (left instanceof Date || right instanceof Date) {
    return left instanceof Date && right instanceof Date && left.getTime() === right.getTime();
  }
  const leftIsArray = Array.isArray(left);
  if (leftIsArray !== Array.isArray(right)) return false;
  if (leftIsArray) {
    const leftItems = left as unknown[];
    const rightItems = right as unknown[];
    if (leftItems.length !== rightItems.length) return false;
    for (let index = 0; index < leftItems.length; index += 1)
      if (!isEqualData(leftItems[index], rightItems[index])) return false;
    return true;
  }
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  let count = 0;
  for (const key in leftRecord) {
    if (!Object.prototype.hasOwnProperty.call(leftRecord, key)) continue;
    if (
      !Object.prototype.hasOwnProperty.call(rightRecord, key) ||
      !isEqualData(leftRecord[key], rightRecord[key])
    )
      return false;
    count += 1;
  }
  for (const key in rightRecord) if (Object.prototype.hasOwnProperty.call(rightRecord, key)) count -= 1;
  return count === 0;
}

/** A shared frozen empty record. */
export const EMPTY_RECORD: Readonly<Record<string, never>> = Object.freeze({});
