import { ToolDefinitionError } from '../errors/tool-definition-error';

/**
 * Whether a tool may run as an MCP task (served as the tool's `execution.taskSupport`): `forbidden` (the
 * default: plain calls only), `optional` (either), `required` (tasks only).
 */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/** The values of {@link TaskSupport}. */
export const TASK_SUPPORT_VALUES: readonly TaskSupport[] = Object.freeze([
  'forbidden',
  'optional',
  'required',
]);

/**
 * Reads a tool's `task` option (absent → `forbidden`).
 *
 * @throws ToolDefinitionError for any other value, naming the accepted ones.
 */
export function readTaskSupport(value: unknown, where: string): TaskSupport {
  if (value === undefined || value === null) return 'forbidden';
  if (typeof value === 'string' && (TASK_SUPPORT_VALUES as readonly string[]).includes(value)) {
    return value as TaskSupport;
  }
  throw new ToolDefinitionError(
    `${where}: task must be 'forbidden', 'optional' or 'required', got ${JSON.stringify(value) ?? String(value)}.`,
  );
}
