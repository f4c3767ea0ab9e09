import type { JsonSchema } from '../../tools/json-schema';
import { loweringError } from './schema-lowering';
import type { LoweringScope } from './schema-lowering';

/** Options of {@link assertObjectRoot}. */
export interface ObjectRootRules {
  /** The fix named when the root is a union (anyOf/oneOf/allOf). */
  unionFix: string;
  /**
   * Whether a root with neither `type` nor `properties` passes (broad JSON Schema targets read it as an
   * empty object); when false, an untyped root needs `properties`.
   */
  allowUntypedRoot: boolean;
}

/**
 * Checks that a tool's parameters schema is one object at the root, as every provider requires.
 *
 * @throws ToolDefinitionError naming the tool when the root is a union or has a type other than `object`.
 */
export function assertObjectRoot(schema: JsonSchema, scope: LoweringScope, rules: ObjectRootRules): void {
  if (schema.anyOf || schema.oneOf || schema.allOf) {
    throw loweringError(scope, '#', 'is a union (anyOf/oneOf/allOf) at the root', rules.unionFix);
  }
  const untypedPasses = rules.allowUntypedRoot || schema.properties !== undefined;
  if (schema.type !== 'object' && !(schema.type === undefined && untypedPasses)) {
    throw loweringError(
      scope,
      '#',
      `has type ${JSON.stringify(schema.type)}, not "object"`,
      'Tool arguments must be one object.',
    );
  }
}
