import type { JsonSchema } from '../../tools/json-schema';
import { loweringError, resolveLocalRef } from './schema-lowering';
import type { LoweringScope } from './schema-lowering';

/**
 * Resolves a `$ref` that every lowering target needs to be local (`#`, `#/$defs/X`, `#/definitions/X`)
 * against the root schema.
 *
 * @throws ToolDefinitionError naming the tool and the path when the reference is not a local definition.
 */
export function requireLocalRef(
  root: JsonSchema,
  reference: string,
  scope: LoweringScope,
  path: string,
): JsonSchema {
  const target = resolveLocalRef(root, reference);
  if (!target) {
    throw loweringError(
      scope,
      path,
      `refers to ${JSON.stringify(reference)}, which is not a local definition`,
      'Inline the schema or move it under $defs.',
    );
  }
  return target;
}
