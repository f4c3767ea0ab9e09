import { ToolDefinitionError } from '../errors/tool-definition-error';
import { readCapabilityList } from '../capabilities/capability-name';
import type { CapabilityList } from '../capabilities/capability-name';

/** Tool names every model provider accepts unchanged. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Checks a tool name against {@link TOOL_NAME_PATTERN}.
 *
 * @throws ToolDefinitionError naming the problem and the fix.
 */
export function assertToolName(name: unknown, where = 'A tool'): asserts name is string {
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    const shown =
      typeof name === 'string'
        ? JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name)
        : String(name);
    const why =
      typeof name !== 'string'
        ? 'it is not a string'
        : name.length === 0
          ? 'it is empty'
          : name.length > 64
            ? `it is ${name.length} characters long (at most 64)`
            : 'it contains characters other than letters, digits, _ and -';
    throw new ToolDefinitionError(
      `${where} has the invalid name ${shown}: ${why}. Use 1–64 characters of [A-Za-z0-9_-] (e.g. "book_hotel") so every model provider accepts it.`,
    );
  }
}

/**
 * Normalizes capabilities given as any iterable of names (an array, a `Set`, a generator): names lower-cased
 * and checked (`[a-z0-9_-]` words joined by dots), empties and duplicates dropped, first order kept, frozen.
 *
 * @throws ToolDefinitionError for a bare string or anything not iterable, or an item that is not a
 *   capability name.
 */
export function normalizeCapabilities(capabilities: CapabilityList | null | undefined): readonly string[] {
  const read = readCapabilityList(capabilities);
  if (!read.ok) throw new ToolDefinitionError(`${read.problem}.`);
  return read.capabilities;
}
