import { ToolInputError } from '../../errors/tool-input-error';
import { ToolValidationError } from '../../errors/tool-validation-error';
import type { ValidationIssue } from '../../errors/tool-validation-error';
import { isPlainRecord } from '../../tools/validation/copy-json-value';
import type { MCPPromptInfo } from './mcp-catalog-definition';
import { quoteKey } from './mcp-definition-kind';

/**
 * Checks `getPrompt` arguments against the arguments the prompt declared, before anything is sent: every
 * key must be declared, every value a string (MCP prompt arguments are strings; nothing is coerced to one),
 * every required argument present. `null` and `undefined` mean absent (models in strict mode send `null`).
 * Returns a new object with the given strings only.
 *
 * @throws ToolValidationError listing every problem (unknown, missing, not a string) with its argument.
 * @throws ToolInputError when `args` is not an object.
 */
export function validateMcpPromptArgs(
  prompt: MCPPromptInfo,
  args: unknown,
  serverName: string,
): Record<string, string> {
  const subject = `prompt ${quoteKey(prompt.name)} on MCP server '${serverName}'`;
  if (args !== undefined && args !== null && !isPlainRecord(args)) {
    throw new ToolInputError(
      `The arguments of ${subject} must be an object of strings, e.g. { ${prompt.arguments[0]?.name ?? 'topic'}: '…' }.`,
    );
  }
  const given = (args ?? {}) as Record<string, unknown>;
  const declared = new Map(prompt.arguments.map((argument) => [argument.name, argument]));
  const issues: ValidationIssue[] = [];
  const checked: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(given)) {
    if (!declared.has(name)) {
      const known = [...declared.keys()];
      issues.push({
        path: name,
        message: `is not an argument of this prompt (${known.length ? `it takes: ${known.join(', ')}` : 'it takes none'})`,
      });
    } else if (value === null || value === undefined) {
      continue;
    } else if (typeof value !== 'string') {
      issues.push({
        path: name,
        message: `must be a string (MCP prompt arguments are strings); got ${typeof value}`,
      });
    } else {
      checked.push([name, value]);
    }
  }
  for (const argument of prompt.arguments) {
    if (argument.required && (given[argument.name] === undefined || given[argument.name] === null))
      issues.push({ path: argument.name, message: 'is required' });
  }
  if (issues.length) throw new ToolValidationError({ issues, subject });
  // fromEntries defines own properties, so an argument named "__proto__" stays data.
  return Object.fromEntries(checked);
}
