import { ToolValidationError } from '../errors/tool-validation-error';
import type { BaseTool } from '../tools/base-tool';
import { validateToolArgs } from '../tools/validation/validate-tool-args';

/**
 * Validates the arguments a model sent for a tool (a JSON string or an object) and returns the coerced
 * object. `null` for an optional property (what OpenAI strict mode sends for "absent") is treated as absent;
 * a tool with its own `validateArgs` (NativeTool: DTO instances) uses it.
 *
 * @throws ToolValidationError for bad JSON or arguments that do not match the tool's schema, with paths.
 */
export function parseToolArguments(
  raw: string | Record<string, unknown> | null | undefined,
  tool: BaseTool,
): Record<string, unknown> {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch (error) {
      throw new ToolValidationError({
        toolName: tool.name,
        issues: [{ path: '', message: `the arguments are not valid JSON (${(error as Error).message})` }],
      });
    }
  }
  const withValidate = tool as BaseTool & { validateArgs?: (args: unknown) => Record<string, unknown> };
  if (typeof withValidate.validateArgs === 'function') return withValidate.validateArgs(value);
  return validateToolArgs(value, tool.inputSchema, { toolName: tool.name });
}
