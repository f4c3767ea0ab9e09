import type { JsonSchema } from '../../tools/json-schema';
import {
  childPath,
  DROPPED_ANNOTATIONS,
  isExtensionKeyword,
  isSchemaObject,
  loweringError,
} from './schema-lowering';
import type { LoweringScope } from './schema-lowering';

/** Options of {@link sortSchemaKeywords}: what the target keeps, handles itself, and how to fix what it rejects. */
export interface SchemaKeywordRules {
  /** Where the lowering pass is, for error messages. */
  scope: LoweringScope;
  /** Keywords copied (deep-cloned) into the lowered node as they are. */
  kept: ReadonlySet<string>;
  /** Keywords the caller lowers itself; skipped here. */
  handled: ReadonlySet<string>;
  /** The fix named when a node allows keys by pattern (a non-empty `patternProperties`). */
  openMapFix: string;
  /** The fix named when a node is a tuple (`prefixItems`). */
  tupleFix: string;
}

/** What {@link sortSchemaKeywords} found in one schema node. */
export interface SortedSchemaKeywords {
  /** The kept keywords, cloned. */
  result: JsonSchema;
  /** The keywords the target cannot take, to be moved into the description. */
  described: Record<string, unknown>;
}

/**
 * Sorts the keywords of one schema node for a lowering target: kept ones are cloned into `result`, handled
 * ones, annotations and `x-` extensions are skipped, an empty `patternProperties` and
 * `unevaluatedProperties` are dropped, and the rest go to `described`.
 *
 * @throws ToolDefinitionError naming the tool and the path when the node has a non-empty `patternProperties`
 *   (an open map) or `prefixItems` (a tuple).
 */
export function sortSchemaKeywords(
  node: JsonSchema,
  path: string,
  rules: SchemaKeywordRules,
): SortedSchemaKeywords {
  const result: JsonSchema = {};
  const described: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (rules.kept.has(key)) result[key] = structuredClone(value);
    else if (rules.handled.has(key) || DROPPED_ANNOTATIONS.has(key) || isExtensionKeyword(key)) continue;
    else if (key === 'patternProperties' && isSchemaObject(value) && Object.keys(value).length > 0) {
      throw loweringError(
        rules.scope,
        childPath(path, key),
        'allows keys by pattern (an open map)',
        rules.openMapFix,
      );
    } else if (key === 'prefixItems') {
      throw loweringError(rules.scope, childPath(path, key), 'is a tuple (prefixItems)', rules.tupleFix);
    } else if (key === 'unevaluatedProperties' || key === 'patternProperties') continue;
    else described[key] = value;
  }
  return { result, described };
}
