import type { JsonSchema } from '../json-schema';
import type { CompileContext } from './compile-schema-check';
import { describeType } from './copy-json-value';
import type { SchemaCheck } from './schema-check';
import { joinPath } from './validation-state';

/** Builds the check of an array schema: `items`, `prefixItems`, `minItems`, `maxItems`, `uniqueItems`. */
export function buildArrayCheck(node: JsonSchema, pointer: string, context: CompileContext): SchemaCheck {
  const tuple = Array.isArray(node.prefixItems)
    ? (node.prefixItems as unknown[])
    : Array.isArray(node.items)
      ? (node.items as unknown[])
      : null;
  const prefixChecks = tuple
    ? tuple.map((item, index) => context.compile(item, `${pointer}/prefixItems/${index}`))
    : [];
  const restSchema = tuple ? (Array.isArray(node.items) ? node.additionalItems : node.items) : node.items;
  const restCheck = context.compile(restSchema ?? true, `${pointer}/items`);
  const { minItems, maxItems } = node;
  const unique = node.uniqueItems === true;
  return (value, path, depth, state) => {
    if (!state.countNode(path)) return value;
    if (!Array.isArray(value)) {
      state.addIssue(path, `must be an array, got ${describeType(value)}`);
      return value;
    }
    if (typeof minItems === 'number' && value.length < minItems) {
      state.addIssue(path, `must have at least ${minItems} item${minItems === 1 ? '' : 's'}`);
    }
    if (typeof maxItems === 'number' && value.length > maxItems) {
      state.addIssue(path, `must have at most ${maxItems} item${maxItems === 1 ? '' : 's'}`);
      return value;
    }
    if (depth >= state.limits.maxDepth) {
      state.addIssue(path, `is nested deeper than ${state.limits.maxDepth} levels`);
      return value;
    }
    const result = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index += 1) {
      const check = index < prefixChecks.length ? prefixChecks[index] : restCheck;
      result[index] = check(value[index], joinPath(path, index), depth + 1, state);
    }
    if (unique) {
      const seen = new Set<string>();
      for (const [index, item] of result.entries()) {
        const key = JSON.stringify(item);
        if (seen.has(key)) {
          state.addIssue(joinPath(path, index), 'duplicates an earlier item; items must be unique');
          break;
        }
        seen.add(key);
      }
    }
    return result;
  };
}
