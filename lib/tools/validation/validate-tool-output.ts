import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import type { JsonSchema } from '../json-schema';
import { ToolResult } from '../tool-result';
import { getCompiledValidator } from './compiled-validator';
import { DEFAULT_VALIDATION_LIMITS } from './validation-limits';
import { ValidationState } from './validation-state';

/**
 * Checks a tool's result against its output schema (no coercion is kept: the result is returned as is).
 * A {@link ToolResult} is checked by its `structuredContent`; one without structured content is not checked
 * (its parts are media, not the schema's value).
 *
 * @throws ToolRuntimeError when the result does not match: the tool broke its own contract.
 */
export function validateToolOutput(result: unknown, outputSchema: JsonSchema, toolName: string): unknown {
  let value = result;
  if (ToolResult.isToolResult(result)) {
    if (result.structuredContent === undefined) return result;
    value = result.structuredContent;
  }
  const state = new ValidationState(DEFAULT_VALIDATION_LIMITS);
  getCompiledValidator(outputSchema).check(value, 'result', 0, state);
  const issue = state.issues[0] ?? getCompiledValidator(outputSchema).ajv()(value);
  if (issue) {
    throw new ToolRuntimeError(
      `Tool '${toolName}' returned a result that does not match its output schema (${issue.path || 'result'}: ${issue.message}). Fix the tool or its outputSchema.`,
      { toolName },
    );
  }
  return result;
}
