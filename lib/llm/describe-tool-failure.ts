import { ActionPolicyError } from '../errors/action-policy-error';
import { ApprovalRequiredError } from '../errors/approval-required-error';
import { ProtolinkError } from '../errors/protolink-error';
import { ToolInputError } from '../errors/tool-input-error';
import { ToolNotFoundError } from '../errors/tool-not-found-error';
import { ToolValidationError } from '../errors/tool-validation-error';
import type { ToolCallProblem } from './tool-loop-types';

/**
 * Turns a tool-call failure into the structured problem the model reads: the kind, the code, a message
 * saying what to change, and the path-addressed issues of a validation error.
 */
export function describeToolFailure(error: unknown, toolName: string): ToolCallProblem {
  if (error instanceof ToolValidationError) {
    return {
      type: 'invalid_arguments',
      code: error.code,
      message: `${asSentence(error.message)} Fix the listed fields and call '${toolName}' again.`,
      issues: error.issues.map((issue) => ({ path: issue.path, message: issue.message })),
    };
  }
  if (error instanceof ToolNotFoundError) {
    return {
      type: 'unknown_tool',
      code: error.code,
      message: error.message,
      availableTools: [...error.availableTools],
    };
  }
  if (error instanceof ApprovalRequiredError) {
    return {
      type: 'approval_required',
      code: error.code,
      message: `${asSentence(error.message)} The call did not run; do not retry it, tell the user it needs approval.`,
    };
  }
  if (error instanceof ActionPolicyError) {
    return {
      type: 'denied',
      code: error.code,
      message: `${asSentence(error.message)} The call did not run; do not retry it.`,
    };
  }
  if (error instanceof ToolInputError)
    return { type: 'invalid_arguments', code: error.code, message: error.message };
  if (error instanceof ProtolinkError)
    return { type: 'tool_error', code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { type: 'tool_error', code: 'TOOL_ERROR', message: `Tool '${toolName}' failed: ${message}` };
}

function asSentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
