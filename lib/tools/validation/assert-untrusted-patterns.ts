import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { compilePatternAt } from './keyword-checks';

/** Keywords whose value is a map of names to subschemas. */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'dependentSchemas', 'patternProperties']);
/** Keywords whose value is a subschema or an array of subschemas. */
const SUBSCHEMAS = new Set([
  'items',
  'prefixItems',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'allOf',
  'anyOf',
  'oneOf',
]);

/**
 * Checks that every `pattern` and `patternProperties` key of an untrusted schema (an MCP server's) can run
 * in the linear-time engine (see `compileUntrustedPattern`), so a tool whose patterns cannot be enforced
 * safely is set aside when it is listed instead of failing on its first call. Only schema positions are
 * read: a `pattern` inside `enum`, `const`, `default` or `examples` is data.
 *
 * @throws ToolDefinitionError naming the pattern, where it sits, and why the engine refuses it.
 */
export function assertUntrustedPatterns(schema: unknown, where: string): void {
  const stack: Array<{ node: unknown; pointer: string }> = [{ node: schema, pointer: '#' }];
  while (stack.length > 0) {
    const { node, pointer } = stack.pop() as { node: unknown; pointer: string };
    if (Array.isArray(node)) {
      node.forEach((item, index) => stack.push({ node: item, pointer: `${pointer}/${index}` }));
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    for (const [key, value] of Object.entries(node)) {
      const at = `${pointer}/${key}`;
      try {
        if (key === 'pattern' && typeof value === 'string') compilePatternAt(value, at);
        if (key === 'patternProperties' && typeof value === 'object' && value !== null)
          for (const source of Object.keys(value)) compilePatternAt(source, at);
      } catch (error) {
        throw new ToolDefinitionError(
          `${where} has an input schema that cannot be used: ${(error as Error).message}`,
          {
            cause: error,
          },
        );
      }
      if (SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
        for (const [name, child] of Object.entries(value))
          stack.push({ node: child, pointer: `${at}/${name}` });
      } else if (SUBSCHEMAS.has(key)) {
        stack.push({ node: value, pointer: at });
      }
    }
  }
}
