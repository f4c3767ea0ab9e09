import { ToolDefinitionError } from '../errors/tool-definition-error';
import { isEqualData } from '../runtime/deep-freeze';
import { RunAction } from '../runtime/run-action';
import type { RunContext } from '../runtime/run-context';
import type { BaseTool } from '../tools/base-tool';
import { NativeTool } from '../tools/native-tool';
import { validateToolArgs } from '../tools/validation/validate-tool-args';

/** A validated call, ready for the policy. */
export interface PreparedToolCall {
  /** The arguments the tool will run with (validated; DTO parameters rebuilt as instances). */
  readonly args: Record<string, unknown>;
  /** The action the policy evaluates (`payload.arguments` holds the same arguments as plain data). */
  readonly action: RunAction;
}

/** A tool that validates its own arguments (NativeTool and compatible tools). */
interface SelfValidatingTool extends BaseTool {
  validateArgs(args: unknown): Record<string, unknown>;
}

/** A tool that builds its own RunAction (NativeTool and compatible tools). */
interface ActionPreparingTool extends BaseTool {
  prepareAction(args: Record<string, unknown>, context?: RunContext): unknown;
}

/**
 * Validates arguments against a tool and returns the validated arguments with the RunAction the policy
 * will see. An action builder that rewrites `payload.arguments` has them validated again, and the
 * rewritten arguments are the ones that run.
 *
 * Returns the prepared call directly when no async action builder is involved (the common case, kept off
 * the promise machinery), a promise otherwise; problems always come as a rejected promise.
 *
 * @throws ToolValidationError for invalid arguments (before anything else runs); ToolDefinitionError
 *   when `prepareAction` returns something other than a RunAction or non-object `payload.arguments`.
 */
export function prepareToolCall(
  tool: BaseTool,
  rawArgs: unknown,
  context: RunContext,
): PreparedToolCall | Promise<PreparedToolCall> {
  try {
    const validated = validateFor(tool, rawArgs);
    const built = buildAction(tool, validated, context);
    return built instanceof RunAction
      ? checkPayload(tool, validated, built)
      : built.then((action) => checkPayload(tool, validated, action));
  } catch (error) {
    return Promise.reject(error);
  }
}

function checkPayload(
  tool: BaseTool,
  validated: Record<string, unknown>,
  action: RunAction,
): PreparedToolCall {
  const payloadArgs = action.payload.arguments;
  if (payloadArgs === undefined) {
    return { args: validated, action: action.withPayload({ ...action.payload, arguments: validated }) };
  }
  if (typeof payloadArgs !== 'object' || payloadArgs === null || Array.isArray(payloadArgs)) {
    throw new ToolDefinitionError(
      `The action prepared for tool '${tool.name}' has payload.arguments of type ${payloadArgs === null ? 'null' : Array.isArray(payloadArgs) ? 'array' : typeof payloadArgs}; it must be an object of arguments.`,
      { toolName: tool.name },
    );
  }
  if (isEqualData(payloadArgs, validated)) return { args: validated, action };
  const rewritten = validateFor(tool, payloadArgs);
  return { args: rewritten, action: action.withPayload({ ...action.payload, arguments: rewritten }) };
}

/** Validates arguments the way the tool does (its own `validateArgs`, else its input schema). */
export function validateFor(tool: BaseTool, args: unknown): Record<string, unknown> {
  if (
    tool instanceof NativeTool ||
    typeof (tool as Partial<SelfValidatingTool>).validateArgs === 'function'
  ) {
    return (tool as SelfValidatingTool).validateArgs(args);
  }
  if (tool.inputSchema) return validateToolArgs(args, tool.inputSchema, { toolName: tool.name });
  return validateToolArgs(args, { type: 'object', additionalProperties: true }, { toolName: tool.name });
}

function buildAction(
  tool: BaseTool,
  args: Record<string, unknown>,
  context: RunContext,
): RunAction | Promise<RunAction> {
  // A NativeTool without a builder gets the same default action, built here without its async wrapper.
  if (hasDefaultAction(tool)) {
    return new RunAction({
      kind: 'tool.call',
      name: tool.name,
      description: tool.description || undefined,
      payload: { arguments: args },
      capabilities: tool.capabilities ?? [],
    });
  }
  const prepared = (tool as ActionPreparingTool).prepareAction(args, context);
  return isPromiseLike(prepared)
    ? Promise.resolve(prepared).then((action) => checkAction(tool, action))
    : checkAction(tool, prepared);
}

/** Whether the tool's action is the default one (no `prepareAction`, or a NativeTool without a builder). */
export function hasDefaultAction(tool: BaseTool): boolean {
  return (
    typeof (tool as Partial<ActionPreparingTool>).prepareAction !== 'function' ||
    (tool instanceof NativeTool && !tool.hasActionBuilder)
  );
}

function checkAction(tool: BaseTool, action: unknown): RunAction {
  if (!(action instanceof RunAction)) {
    throw new ToolDefinitionError(
      `Tool '${tool.name}' prepareAction() must return a RunAction, got ${action === null ? 'null' : typeof action}; the tool did not run.`,
      { toolName: tool.name },
    );
  }
  const required = tool.capabilities ?? [];
  return required.every((capability) => action.capabilities.includes(capability))
    ? action
    : action.withCapabilities([...action.capabilities, ...required]);
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function'
  );
}
