import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { readCapabilityList } from '../../capabilities/capability-name';

/**
 * Checks that an option of a decorator is absent or a list of strings (`tags`, `capabilities`).
 *
 * @throws ToolDefinitionError naming the decorator, the option and the fix.
 */
export function assertOptionalStringList(
  value: unknown,
  where: string,
  option: string,
  example: string,
): void {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw new ToolDefinitionError(
      `${where}: ${option} must be a list of strings, e.g. ${option}: ${example}.`,
    );
  }
}

/**
 * Reads a decorator's `capabilities`: absent stays absent; any iterable of capability names (an array, a
 * `Set`, a generator, read once here) becomes a frozen, normalized array. A bare string is refused rather
 * than read letter by letter.
 *
 * @throws ToolDefinitionError naming the decorator, the bad capability and the fix.
 */
export function readOptionalCapabilities(value: unknown, where: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  const read = readCapabilityList(value);
  if (!read.ok) throw new ToolDefinitionError(`${where}: ${read.problem}.`);
  return read.capabilities;
}

/**
 * Checks that an option of a decorator is absent or of one of the expected kinds.
 *
 * @throws ToolDefinitionError naming the decorator, the option and what it accepts.
 */
export function assertOptionalKind(
  value: unknown,
  where: string,
  option: string,
  kinds: readonly ('array' | 'function' | 'object')[],
  accepted: string,
): void {
  if (value === undefined) return;
  const kind = Array.isArray(value)
    ? 'array'
    : typeof value === 'function'
      ? 'function'
      : typeof value === 'object' && value !== null
        ? 'object'
        : null;
  if (kind === null || !kinds.includes(kind)) {
    throw new ToolDefinitionError(`${where}: ${option} must be ${accepted}.`);
  }
}
