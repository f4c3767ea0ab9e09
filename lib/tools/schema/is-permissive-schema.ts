/** Keywords that constrain nothing by themselves: annotations, identifiers and definitions. */
export const UNCONSTRAINING_KEYWORDS: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  '$defs',
  'definitions',
  '$comment',
  '$anchor',
  '$dynamicAnchor',
  '$recursiveAnchor',
  '$vocabulary',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  'contentEncoding',
  'contentMediaType',
]);

/**
 * Returns whether a schema accepts every value: `true`, or an object of annotations only (`{}`,
 * `{ title: 'fOutput' }`, what TypeScript's `unknown` and `any` become). Such a schema says nothing about a
 * tool's result, so it is never declared as one.
 */
export function isPermissiveSchema(schema: unknown): boolean {
  if (schema === true) return true;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return false;
  return Object.keys(schema).every((key) => UNCONSTRAINING_KEYWORDS.has(key));
}
