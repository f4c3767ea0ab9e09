import type { JsonSchema } from '../json-schema';
import { setOwn } from '../validation/copy-json-value';

const MAX_INLINE_DEPTH = 64;

/**
 * Inlines local `$ref`s (`#/$defs/X`, `#/definitions/X`) and drops the definitions that are no longer
 * referenced. A recursive reference stays a reference (and its definition stays), so this never loops.
 * Unknown references are left as they are. Returns a new schema.
 */
export function inlineLocalRefs(schema: JsonSchema): JsonSchema {
  const definitions: Record<string, Record<string, unknown>> = {
    $defs: (schema.$defs as Record<string, unknown>) ?? {},
    definitions: (schema.definitions as Record<string, unknown>) ?? {},
  };
  const kept = new Map<string, Set<string>>([
    ['$defs', new Set()],
    ['definitions', new Set()],
  ]);
  const visit = (node: unknown, active: string[], depth: number): unknown => {
    if (Array.isArray(node)) return node.map((item) => visit(item, active, depth + 1));
    if (typeof node !== 'object' || node === null) return node;
    const record = node as Record<string, unknown>;
    const reference = record.$ref;
    if (typeof reference === 'string') {
      const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(reference);
      if (match) {
        const [, section, rawName] = match;
        const name = decodeURIComponent(rawName).replace(/~1/g, '/').replace(/~0/g, '~');
        const target = definitions[section][name];
        if (target !== undefined) {
          if (active.includes(reference) || depth > MAX_INLINE_DEPTH) {
            kept.get(section)?.add(name);
            return { ...record };
          }
          const { $ref: _ref, ...siblings } = record;
          const inlined = visit(target, [...active, reference], depth + 1) as Record<string, unknown>;
          return Object.keys(siblings).length
            ? { ...inlined, ...visitRecord(siblings, active, depth) }
            : inlined;
        }
      }
      return { ...record };
    }
    return visitRecord(record, active, depth);
  };
  const visitRecord = (
    record: Record<string, unknown>,
    active: string[],
    depth: number,
  ): Record<string, unknown> => {
    const result: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) {
      if (key === '$defs' || key === 'definitions') continue;
      setOwn(
        result,
        key,
        key === 'enum' || key === 'const' || key === 'default' || key === 'examples'
          ? structuredClone(value)
          : visit(value, active, depth + 1),
      );
    }
    return result;
  };
  // The root itself may be a `$ref` into its own `$defs` (typescript-json-schema and zod emit that form).
  const result = visit(schema, [], 0) as JsonSchema;
  // Definitions that stay referenced (recursion) are kept, themselves inlined except for the recursion.
  for (const [section, names] of kept) {
    if (names.size === 0) continue;
    const kept: Record<string, unknown> = {};
    for (const name of names) {
      const reference = `#/${section}/${name}`;
      kept[name] = visit(definitions[section][name], [reference], 1);
    }
    result[section] = kept;
  }
  return result;
}
