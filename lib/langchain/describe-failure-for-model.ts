import { ActionPolicyError } from '../errors/action-policy-error';
import { ToolInputError } from '../errors/tool-input-error';
import { describeToolFailure } from '../llm/describe-tool-failure';

/**
 * Returns the text a model should read for a failure it can act on (invalid arguments with every
 * problem, an unknown tool, a policy refusal or a missing approval), the same JSON the Protolink tool
 * loop sends; undefined for other failures (the tool's own errors, cancellation, budgets), which the
 * framework's own error handling gets.
 */
export function describeFailureForModel(error: unknown, toolName: string): string | undefined {
  if (!(error instanceof ToolInputError) && !(error instanceof ActionPolicyError)) return undefined;
  return JSON.stringify({ error: describeToolFailure(error, toolName) });
}
