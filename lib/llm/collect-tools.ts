import { ToolDefinitionError } from '../errors/tool-definition-error';
import type { BaseTool } from '../tools/base-tool';

/** Tools to export or offer a model: an array or iterable of tools, or an object holding them (an Agent). */
export type ToolSource =
  Iterable<BaseTool> | { readonly tools: ReadonlyMap<string, BaseTool> | Iterable<BaseTool> };

/**
 * Returns the tools of a {@link ToolSource} as an array, in order.
 *
 * @throws ToolDefinitionError when the source holds something that is not a tool, or two tools share a name.
 */
export function collectTools(source: ToolSource): BaseTool[] {
  const holder = source as { tools?: unknown };
  const iterable =
    source !== null && typeof source === 'object' && !isIterable(source) && holder.tools !== undefined
      ? holder.tools
      : source;
  if (iterable === null || iterable === undefined || !isIterable(iterable)) {
    throw new ToolDefinitionError(
      'Expected an array of tools, or an object with a `tools` map or iterable (such as an Agent).',
    );
  }
  const values = isMapLike(iterable) ? iterable.values() : (iterable as Iterable<unknown>);
  const tools: BaseTool[] = [];
  const seen = new Set<string>();
  for (const item of values) {
    if (!isToolLike(item)) {
      throw new ToolDefinitionError(
        `Expected tools with a name, a description and a call() method, got ${item === null ? 'null' : typeof item}.`,
      );
    }
    if (seen.has(item.name)) {
      throw new ToolDefinitionError(`Two tools are named '${item.name}'; a model needs unique tool names.`, {
        toolName: item.name,
      });
    }
    seen.add(item.name);
    tools.push(item);
  }
  return tools;
}

function isIterable(value: unknown): value is Iterable<unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function'
  );
}

/** A Map or a read-only map view (such as the Agent's `tools`): iterating it yields entries, not tools. */
function isMapLike(value: unknown): value is ReadonlyMap<unknown, unknown> {
  return (
    value instanceof Map ||
    (typeof (value as Map<unknown, unknown>).get === 'function' &&
      typeof (value as Map<unknown, unknown>).values === 'function')
  );
}

function isToolLike(value: unknown): value is BaseTool {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as BaseTool).name === 'string' &&
    typeof (value as BaseTool).call === 'function'
  );
}
