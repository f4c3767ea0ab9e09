import { ToolDefinitionError } from '../../errors/tool-definition-error';
import type { JsonSchema } from '../../tools/json-schema';
import { findInPlaceCycle } from '../../tools/validation/find-in-place-cycle';
import { resolveLocalRef } from '../../tools/validation/resolve-local-ref';

/** Bounds on a schema that came from an MCP server. */
export interface RemoteSchemaLimits {
  /** Largest schema, in JSON characters. */
  maxChars: number;
  /** Deepest nesting of objects and arrays in the schema. */
  maxDepth: number;
}

/** Most `$ref` hops followed without reaching a real schema before the chain counts as a cycle. */
const MAX_REF_HOPS = 32;

/**
 * Checks an untrusted server schema before anything compiles it: an object, at most `maxChars` of JSON,
 * at most `maxDepth` deep, only local `$ref`s, and no cycle that applies the schema to the same value again
 * without descending into it (`{ allOf: [{ $ref: '#' }] }`, a `$ref` chain in a circle; see
 * `findInPlaceCycle`), which would recurse forever on every call. Recursive schemas whose cycles pass
 * through `properties`, `items` or another keyword that descends into the value are fine.
 *
 * `kind` names the schema in messages (`input` or `output`).
 *
 * @throws ToolDefinitionError naming the tool, the server and the problem.
 */
export function assertRemoteSchema(
  schema: unknown,
  limits: RemoteSchemaLimits,
  where: string,
  kind: 'input' | 'output' = 'input',
): asserts schema is JsonSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new ToolDefinitionError(`${where} has an ${kind} schema that is not a JSON object.`);
  }
  // Depth first: serializing a schema nested thousands of levels would overflow the stack.
  const stack: Array<{ node: unknown; depth: number }> = [{ node: schema, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: unknown; depth: number };
    if (typeof node !== 'object' || node === null) continue;
    if (depth > limits.maxDepth) {
      throw new ToolDefinitionError(
        `${where} has an ${kind} schema nested deeper than ${limits.maxDepth} levels.`,
      );
    }
    const record = node as Record<string, unknown>;
    if (!Array.isArray(node) && typeof record.$ref === 'string')
      assertRefResolves(schema as JsonSchema, record.$ref, `${where} has an ${kind} schema`);
    for (const child of Object.values(record)) stack.push({ node: child, depth: depth + 1 });
  }
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch (error) {
    throw new ToolDefinitionError(`${where} has an ${kind} schema that cannot be serialized.`, {
      cause: error,
    });
  }
  if (text.length > limits.maxChars) {
    throw new ToolDefinitionError(
      `${where} has an ${kind} schema of ${text.length} characters (at most ${limits.maxChars}).`,
    );
  }
  const cycle = findInPlaceCycle(schema);
  if (cycle !== null) {
    throw new ToolDefinitionError(
      `${where} has an ${kind} schema that loops back on itself without descending into the value (${cycle.join(' → ')}), so checking any value would never end; the server must put the recursion under properties or items.`,
    );
  }
}

function assertRefResolves(root: JsonSchema, reference: string, subject: string): void {
  let current = reference;
  const seen = new Set<string>();
  for (let hop = 0; hop < MAX_REF_HOPS; hop += 1) {
    if (seen.has(current)) {
      throw new ToolDefinitionError(
        `${subject} whose $ref '${reference}' points only at itself through other $refs.`,
      );
    }
    seen.add(current);
    const target = resolveLocalRef(root, current);
    if (target === undefined) {
      throw new ToolDefinitionError(
        `${subject} with the unresolvable $ref '${current}' (only local refs are supported).`,
      );
    }
    if (typeof target !== 'object' || target === null || typeof (target as JsonSchema).$ref !== 'string')
      return;
    current = (target as JsonSchema).$ref as string;
  }
  throw new ToolDefinitionError(`${subject} with a $ref chain longer than ${MAX_REF_HOPS} hops.`);
}
