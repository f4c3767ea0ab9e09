import { ToolDefinitionError } from '../../errors/tool-definition-error';

/**
 * Deep-copies schema data (plain objects, arrays, strings, numbers, booleans, null), so a schema given by
 * a caller is never shared or mutated.
 *
 * @throws ToolDefinitionError for a cycle or a value JSON cannot hold (a function, a symbol, a bigint, a class
 * instance such as a RegExp),
 * naming where it is.
 */
export function copySchemaData(value: unknown, path = 'schema', ancestors: object[] = []): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return value;
  if (typeof value !== 'object') {
    throw new ToolDefinitionError(
      `${path} is ${describe(value)}, which a JSON Schema cannot hold; use JSON data only (objects, arrays, strings, numbers, booleans, null).`,
    );
  }
  if (ancestors.includes(value)) {
    throw new ToolDefinitionError(
      `${path} refers back to itself; express recursion with a $ref such as { $ref: '#/$defs/Node' }.`,
    );
  }
  // Realm-agnostic: structuredClone and vm contexts build plain objects on another realm's Object.prototype.
  const prototype = Object.getPrototypeOf(value) as object | null;
  if (!Array.isArray(value) && prototype !== null && Object.getPrototypeOf(prototype) !== null) {
    throw new ToolDefinitionError(
      `${path} is a ${value.constructor?.name ?? 'class instance'}, which a JSON Schema cannot hold; use JSON data only (write a pattern as a string, a date as an ISO string).`,
    );
  }
  const nextAncestors = [...ancestors, value];
  if (Array.isArray(value))
    return value.map((item, index) => copySchemaData(item, `${path}[${index}]`, nextAncestors));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    Object.defineProperty(copy, key, {
      value: copySchemaData(item, `${path}.${key}`, nextAncestors),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

function describe(value: unknown): string {
  if (typeof value === 'function') return `the function ${value.name || '(anonymous)'}`;
  return `a ${typeof value}`;
}
