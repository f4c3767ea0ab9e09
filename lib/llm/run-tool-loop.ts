import { BudgetExceededError } from '../errors/budget-exceeded-error';
import { raceSignal } from '../runtime/race-signal';
import { ToolCancelledError } from '../errors/tool-cancelled-error';
import { ToolInputError } from '../errors/tool-input-error';
import { lazyRequire } from '../runtime/lazy-require';
import { RunContext } from '../runtime/run-context';
import { collectTools } from './collect-tools';
import type { ToolCallOutcome, ToolCallState } from './execute-tool-call';
import type { LlmMessage, LlmResponse, LlmRequest } from './llm';
import type {
  RunToolLoopOptions,
  ToolCallTrace,
  ToolLoopCaller,
  ToolLoopEvent,
  ToolLoopResult,
  ToolLoopUsage,
} from './tool-loop-types';

// Running a model's tool calls (and turning results into text) loads with the first loop, not on import.
const loadExecuteToolCall = lazyRequire((): typeof import('./execute-tool-call') =>
  require('./execute-tool-call'),
);

const DEFAULT_MAX_STEPS = 10;
const DEFAULT_MAX_TOOL_RETRIES = 3;
const DEFAULT_MAX_RESULT_CHARS = 20_000;

/**
 * Runs the tool-calling loop: asks the model, runs the tool calls it makes (concurrently by default) through
 * `caller.callToolInContext` (validation, policy, approval, `maxToolCalls`, cancellation), sends the results
 * back, and repeats until the model answers without tool calls. Bad JSON, unknown tools, invalid arguments,
 * policy refusals and tool failures go back to the model as structured results so it can correct itself.
 * Every step checks cancellation and charges `maxSteps` and `maxLlmCalls` on the context.
 *
 * @throws BudgetExceededError (with `trace`, the tool calls so far) when a budget, `maxSteps`, the retry
 * bound of a failing tool, or a repeated failing call stops the loop.
 * @throws ToolCancelledError when the run is canceled.
 * @throws ToolRuntimeError when the model provider fails.
 * @throws ToolInputError for bad options.
 */
export async function runToolLoop(
  caller: ToolLoopCaller,
  prompt: string | readonly LlmMessage[],
  options: RunToolLoopOptions,
): Promise<ToolLoopResult> {
  const settings = readSettings(options);
  if (typeof prompt !== 'string' && !Array.isArray(prompt)) {
    throw new ToolInputError(
      'runToolLoop() needs a prompt: a string or a list of messages ({ role, content }).',
    );
  }
  const { llm } = options;
  const context = options.context ?? new RunContext({});
  const tools = collectTools(caller);
  const messages: LlmMessage[] = [
    ...(options.system ? [{ role: 'system' as const, content: options.system }] : []),
    ...(options.history ?? []),
    ...(typeof prompt === 'string' ? [{ role: 'user' as const, content: prompt }] : prompt),
  ];
  const trace: ToolCallTrace[] = [];
  const usage: ToolLoopUsage = { inputTokens: 0, outputTokens: 0, llmCalls: 0, toolCalls: 0 };
  const state: ToolCallState = {
    caller,
    context,
    toolNames: tools.map((tool) => tool.name),
    maxResultChars: settings.maxResultChars,
    failures: new Map(),
    warned: new Set(),
  };
  const failuresInRow = new Map<string, number>();
  const emit = (event: ToolLoopEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // A telemetry listener must never break the run.
    }
  };
  for (let step = 1; ; step += 1) {
    context.throwIfCanceled();
    if (step > settings.maxSteps) {
      throw new BudgetExceededError(
        `The model was still calling tools after ${settings.maxSteps} steps (maxSteps); the loop stopped. Raise maxSteps or simplify the task.`,
        { limit: 'maxSteps', maximum: settings.maxSteps, used: step - 1, trace: [...trace] },
      );
    }
    withTrace(trace, () => {
      context.chargeStep();
      context.chargeLlmCall();
    });
    const request: LlmRequest = { messages: [...messages], tools, signal: context.signal };
    const base = { step, provider: llm.provider, model: llm.model, runId: context.runId };
    emit({ type: 'llm-call-start', ...base, messageCount: request.messages.length, toolCount: tools.length });
    const started = Date.now();
    let response: LlmResponse;
    try {
      response = await raceModelCall(llm.generate(request), context);
    } catch (error) {
      emit({ type: 'llm-call-error', ...base, durationMs: Date.now() - started, error: error as Error });
      if (!(error instanceof ToolCancelledError) && context.canceled) context.throwIfCanceled();
      throw error;
    }
    usage.llmCalls += 1;
    usage.inputTokens += response.usage?.inputTokens ?? 0;
    usage.outputTokens += response.usage?.outputTokens ?? 0;
    emit({
      type: 'llm-call-end',
      ...base,
      durationMs: Date.now() - started,
      ...(response.usage ? { usage: response.usage } : {}),
      toolCallCount: response.toolCalls.length,
      ...(response.finishReason ? { finishReason: response.finishReason } : {}),
    });
    const toolCalls = response.toolCalls ?? [];
    messages.push({ role: 'assistant', content: response.text, ...(toolCalls.length ? { toolCalls } : {}) });
    if (toolCalls.length === 0) {
      return { text: response.text ?? '', steps: step, toolCalls: trace, usage, messages };
    }
    context.throwIfCanceled();
    const outcomes = await runCalls(toolCalls, step, state, settings.parallel);
    for (const outcome of outcomes) {
      trace.push(outcome.trace);
      messages.push(outcome.message);
      if (outcome.dispatched) usage.toolCalls += 1;
    }
    const fatal = outcomes.find((outcome) => outcome.fatal)?.fatal;
    if (fatal) throw attachTrace(fatal, trace);
    for (const outcome of outcomes) {
      const count = outcome.trace.status === 'ok' ? 0 : (failuresInRow.get(outcome.trace.name) ?? 0) + 1;
      failuresInRow.set(outcome.trace.name, count);
      if (count > settings.maxToolRetries) {
        throw new BudgetExceededError(
          `Calls to '${outcome.trace.name}' failed ${count} times in a row (maxToolRetries is ${settings.maxToolRetries}); the loop stopped. Last problem: ${outcome.trace.error?.message ?? 'unknown'}`,
          {
            limit: 'maxToolRetries',
            maximum: settings.maxToolRetries,
            used: count,
            trace: [...trace],
            toolName: outcome.trace.name,
          },
        );
      }
    }
    context.throwIfCanceled();
  }
}

function readSettings(options: RunToolLoopOptions) {
  if (typeof options !== 'object' || options === null || typeof options.llm?.generate !== 'function') {
    throw new ToolInputError(
      'runToolLoop() needs { llm }: a model such as new OpenAIChatLLM({ model }) or a ScriptedLLM.',
    );
  }
  const count = (name: string, value: number | undefined, fallback: number, minimum: number): number => {
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || value < minimum)
      throw new ToolInputError(`${name} must be an integer >= ${minimum}, got ${JSON.stringify(value)}.`);
    return value;
  };
  return {
    maxSteps: count('maxSteps', options.maxSteps, DEFAULT_MAX_STEPS, 1),
    maxToolRetries: count('maxToolRetries', options.maxToolRetries, DEFAULT_MAX_TOOL_RETRIES, 0),
    maxResultChars: count('maxResultChars', options.maxResultChars, DEFAULT_MAX_RESULT_CHARS, 1),
    parallel: options.parallelToolCalls !== false,
  };
}

async function runCalls(
  calls: LlmResponse['toolCalls'],
  step: number,
  state: ToolCallState,
  parallel: boolean,
): Promise<ToolCallOutcome[]> {
  const { executeToolCall } = loadExecuteToolCall();
  if (parallel) return Promise.all(calls.map((call) => executeToolCall(call, step, state)));
  const outcomes: ToolCallOutcome[] = [];
  for (const call of calls) {
    const outcome = await executeToolCall(call, step, state);
    outcomes.push(outcome);
    if (outcome.fatal) break;
  }
  return outcomes;
}

function withTrace(trace: ToolCallTrace[], charge: () => void): void {
  try {
    charge();
  } catch (error) {
    throw attachTrace(error as Error, trace);
  }
}

function attachTrace(error: Error, trace: ToolCallTrace[]): Error {
  if (!(error instanceof BudgetExceededError) || error.trace !== undefined) return error;
  return new BudgetExceededError(error.message, {
    limit: error.limit,
    maximum: error.maximum,
    used: error.used,
    trace: [...trace],
    toolName: error.toolName,
    cause: error,
  });
}

/** Waits for the model call, but rejects at once when the run is canceled (a model may ignore its signal). */
function raceModelCall<T>(work: Promise<T>, context: RunContext): Promise<T> {
  return raceSignal(
    work,
    context.signal,
    () =>
      new ToolCancelledError(
        `Run ${context.runId} was canceled${context.cancelReason ? ` (${context.cancelReason})` : ''} while the model was answering.`,
        { reason: context.cancelReason },
      ),
  );
}
