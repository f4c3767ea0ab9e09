import type { JsonSchema } from '../json-schema';

/**
 * Prepares a schema built on its own (a DTO's, whose recursion says `$ref: '#'` and whose shared parts sit in
 * its own `$defs`) for use as one property of a larger schema: its `$defs` move into `rootDefinitions`, and
 * a self-referencing schema moves there too under `name`, so every reference still points at the same part.
 * Returns the schema to place at the property (a `$ref` when it moved). Never mutates `schema`.
 */
export function embedPropertySchema(
  schema: JsonSchema,
  name: string,
  rootDefinitions: Record<string, JsonSchema>,
): JsonSchema {
  const { $defs, ...body } = schema;
  const renames = new Map<string, string>();
  for (const [key, definition] of Object.entries(($defs as Record<string, JsonSchema> | undefined) ?? {})) {
    renames.set(`#/$defs/${key}`, `#/$defs/${claimName(key, definition, rootDefinitions)}`);
  }
  const selfReferencing =
    containsReference(body, '#') ||
    [...Object.values(($defs as Record<string, JsonSchema>) ?? {})].some((definition) =>
      containsReference(definition, '#'),
    );
  const selfName = selfReferencing ? claimName(name, body, rootDefinitions) : undefined;
  if (selfName !== undefined) renames.set('#', `#/$defs/${selfName}`);
  for (const [key, definition] of Object.entries(($defs as Record<string, JsonSchema> | undefined) ?? {})) {
    rootDefinitions[renames.get(`#/$defs/${key}`)!.slice('#/$defs/'.length)] = rewriteReferences(
      definition,
      renames,
    ) as JsonSchema;
  }
  const rewritten = rewriteReferences(body, renames) as JsonSchema;
  if (selfName === undefined) return rewritten;
  rootDefinitions[selfName] = rewritten;
  return { $ref: `#/$defs/${selfName}` };
}

function claimName(wanted: string, definition: JsonSchema, taken: Record<string, JsonSchema>): string {
  const base = wanted.replace(/[^A-Za-z0-9_.-]/g, '_') || 'Definition';
  let candidate = base;
  for (
    let suffix = 2;
    candidate in taken && JSON.stringify(taken[candidate]) !== JSON.stringify(definition);
    suffix++
  ) {
    candidate = `${base}_${suffix}`;
  }
  return candidate;
}

function containsReference(value: unknown, reference: string): boolean {
  if (Array.isArray(value)) return value.some((item) => containsReference(item, reference));
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, inner]) =>
    key === '$ref' ? inner === reference : containsReference(inner, reference),
  );
}

function rewriteReferences(value: unknown, renames: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteReferences(item, renames));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string'
        ? (renames.get(inner) ?? inner)
        : rewriteReferences(inner, renames),
    ]),
  );
}
