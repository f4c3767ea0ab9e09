import { BudgetExceededError } from '../errors/budget-exceeded-error';
import { ToolCancelledError } from '../errors/tool-cancelled-error';
import type { RunContext } from '../runtime/run-context';
import { ToolResult } from '../tools/tool-result';
import { describeToolFailure } from './describe-tool-failure';
import type { LlmToolCall, LlmToolMessage } from './llm';
import { capToolResultText, toToolResultText } from './to-tool-result-text';
import type { ToolCallProblem, ToolCallTrace, ToolLoopCaller } from './tool-loop-types';

/** What the loop shares between the tool calls of a run. */
export interface ToolCallState {
  caller: ToolLoopCaller;
  context: RunContext;
  toolNames: readonly string[];
  maxResultChars: number;
  /** Failed calls by signature (name + arguments), with the problem sent back. */
  failures: Map<string, ToolCallProblem>;
  /** Signatures of repeated failed calls the model was already warned about. */
  warned: Set<string>;
}

/** The outcome of one tool call: its trace entry, the message for the model, or an error that ends the loop. */
export interface ToolCallOutcome {
  trace: ToolCallTrace;
  message: LlmToolMessage;
  /** Whether the call reached the caller's `callToolInContext`. */
  dispatched: boolean;
  /** Cancellation, budget or a repeated failing call: the loop stops with it. */
  fatal?: Error;
}

/**
 * Runs one tool call the model asked for. Bad JSON, unknown tools, invalid arguments, policy refusals and
 * tool failures come back as structured problems; cancellation and budget errors are returned as `fatal`.
 * A call identical to one that already failed is not run again: the model is told once, then the loop stops.
 */
export async function executeToolCall(
  call: LlmToolCall,
  step: number,
  state: ToolCallState,
): Promise<ToolCallOutcome> {
  const started = Date.now();
  const parsed = parseArguments(call.arguments);
  const signature = `${call.name}\u0000${parsed.ok ? stableStringify(parsed.value) : String(call.arguments)}`;
  const finish = (
    status: ToolCallTrace['status'],
    detail: { result?: unknown; error?: ToolCallProblem },
    dispatched: boolean,
    fatal?: Error,
  ): ToolCallOutcome => {
    const trace: ToolCallTrace = {
      step,
      id: call.id,
      name: call.name,
      arguments: call.arguments,
      status,
      durationMs: Date.now() - started,
      ...detail,
    };
    const rich =
      !detail.error && ToolResult.isToolResult(detail.result)
        ? capToolResultText(detail.result, state.maxResultChars)
        : undefined;
    const content = detail.error
      ? JSON.stringify({ error: detail.error })
      : rich
        ? toToolResultText(rich)
        : serializeResult(detail.result, state.maxResultChars);
    const message: LlmToolMessage = { role: 'tool', toolCallId: call.id, name: call.name, content };
    if (rich) message.result = rich;
    if (detail.error) message.isError = true;
    return { trace, message, dispatched, ...(fatal ? { fatal } : {}) };
  };
  const previous = state.failures.get(signature);
  if (previous) {
    const problem: ToolCallProblem = {
      type: 'repeated_call',
      code: 'REPEATED_CALL',
      message: `This exact call to '${call.name}' already failed (${previous.message}); it was not run again. Change the arguments, use another tool, or answer without it.`,
    };
    if (!state.warned.has(signature)) {
      state.warned.add(signature);
      return finish('skipped', { error: problem }, false);
    }
    const fatal = new BudgetExceededError(
      `The model repeated the same failing call to '${call.name}' after being told it failed; the loop stopped. Last problem: ${previous.message}`,
      { limit: 'repeatedFailedCalls', maximum: 1, used: 2, toolName: call.name },
    );
    return finish('skipped', { error: problem }, false, fatal);
  }
  const fail = (problem: ToolCallProblem, dispatched: boolean): ToolCallOutcome => {
    state.failures.set(signature, problem);
    return finish('error', { error: problem }, dispatched);
  };
  if (!parsed.ok)
    return fail({ type: 'invalid_arguments', code: 'INVALID_JSON', message: parsed.message }, false);
  if (!state.toolNames.includes(call.name)) {
    return fail(
      {
        type: 'unknown_tool',
        code: 'TOOL_NOT_FOUND',
        message: `There is no tool named '${call.name}'. Call one of: ${state.toolNames.join(', ') || '(none)'}.`,
        availableTools: [...state.toolNames],
      },
      false,
    );
  }
  try {
    const result = await state.caller.callToolInContext(call.name, state.context, parsed.value);
    if (state.context.canceled) {
      return finish(
        'ok',
        { result },
        true,
        new ToolCancelledError(cancelMessage(state.context, call.name), {
          reason: state.context.cancelReason,
          toolName: call.name,
          hasResult: true,
          result,
        }),
      );
    }
    return finish('ok', { result }, true);
  } catch (error) {
    if (error instanceof ToolCancelledError || error instanceof BudgetExceededError) {
      return finish('error', { error: describeToolFailure(error, call.name) }, true, error);
    }
    if (state.context.canceled) {
      const cancelled = new ToolCancelledError(cancelMessage(state.context, call.name), {
        reason: state.context.cancelReason,
        toolName: call.name,
        cause: error,
      });
      return finish('error', { error: describeToolFailure(cancelled, call.name) }, true, cancelled);
    }
    return fail(describeToolFailure(error, call.name), true);
  }
}

function parseArguments(
  raw: string | Record<string, unknown>,
): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return { ok: true, value: {} };
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return {
        ok: false,
        message: `The arguments are not valid JSON (${(error as Error).message}). Send one JSON object, e.g. {"name": "value"}.`,
      };
    }
  }
  if (value === null || value === undefined) return { ok: true, value: {} };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      message: `The arguments must be one JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}.`,
    };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

function serializeResult(result: unknown, maxChars: number): string {
  let text: string;
  if (typeof result === 'string') text = result;
  else {
    try {
      text = JSON.stringify(result === undefined ? null : result) ?? 'null';
    } catch {
      text = String(result);
    }
  }
  return text.length > maxChars
    ? `${text.slice(0, maxChars)}… [truncated: ${text.length - maxChars} more characters]`
    : text;
}

/** JSON with sorted keys, so `{a,b}` and `{b,a}` are the same call. */
function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableStringify((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function cancelMessage(context: RunContext, toolName: string): string {
  const reason = context.cancelReason;
  return `Run ${context.runId} was canceled${reason ? ` (${reason})` : ''} while tool '${toolName}' ran.`;
}
