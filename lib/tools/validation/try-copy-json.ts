import { isPlainRecord, setOwn, UNSAFE_KEYS } from './copy-json-value';
import type { ValidationLimits } from './validation-limits';

/** What {@link tryCopyJson} returns when the value needs the full walk (which then reports the problem). */
export const NOT_COPIED: unique symbol = Symbol('not copied');

/**
 * Deep-copies plain JSON data within the limits, without bookkeeping: anything the full walk would report
 * (too deep, too many values, too long a string, a non-finite number, an unsafe key, not JSON data) returns
 * {@link NOT_COPIED} instead, so the fast path never decides a problem on its own.
 */
export function tryCopyJson(value: unknown, limits: ValidationLimits): unknown {
  const budget = { nodes: limits.maxNodes };
  return copy(value, 0, limits, budget);
}

function copy(value: unknown, depth: number, limits: ValidationLimits, budget: { nodes: number }): unknown {
  if (--budget.nodes < 0) return NOT_COPIED;
  switch (typeof value) {
    case 'string':
      return value.length > limits.maxStringLength ? NOT_COPIED : value;
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : NOT_COPIED;
    case 'object':
      break;
    default:
      return NOT_COPIED;
  }
  if (value === null) return null;
  if (depth >= limits.maxDepth) return NOT_COPIED;
  if (Array.isArray(value)) {
    const result = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index += 1) {
      const item = copy(value[index], depth + 1, limits, budget);
      if (item === NOT_COPIED) return NOT_COPIED;
      result[index] = item;
    }
    return result;
  }
  if (!isPlainRecord(value)) return NOT_COPIED;
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (item === undefined) continue;
    if (UNSAFE_KEYS.has(key)) return NOT_COPIED;
    const copied = copy(item, depth + 1, limits, budget);
    if (copied === NOT_COPIED) return NOT_COPIED;
    setOwn(result, key, copied);
  }
  return result;
}
