import { ToolCancelledError } from '../errors/tool-cancelled-error';
import { ToolRuntimeError } from '../errors/tool-runtime-error';
import type { LLM, LlmMessage, LlmRequest, LlmResponse, LlmToolCall, LlmUsage } from './llm';

/** One scripted tool call; the id defaults to `call_<n>`, the arguments to `{}`. */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments?: string | Record<string, unknown>;
}

/** One scripted answer: text, tool calls, or both. */
export interface ScriptedResponse {
  text?: string | null;
  toolCalls?: ScriptedToolCall[];
  usage?: LlmUsage;
  finishReason?: string;
}

/** A scripted step: an answer, a function of the request returning one, or an error to throw. */
export type ScriptedStep =
  | ScriptedResponse
  | Error
  | ((request: LlmRequest, index: number) => ScriptedResponse | Promise<ScriptedResponse>);

/** What ScriptedLLM saw in one call (copies, safe to inspect after the run). */
export interface ScriptedCall {
  messages: LlmMessage[];
  toolNames: string[];
}

/**
 * An {@link LLM} that answers from a list, for tests and offline samples: each call takes the next step.
 * It records every request in `calls` and honours the request's abort signal.
 */
export class ScriptedLLM implements LLM {
  readonly provider: string;
  readonly model: string;
  /** Every request received, in order. */
  readonly calls: ScriptedCall[] = [];
  private readonly steps: ScriptedStep[];
  private callCount = 0;

  constructor(steps: ScriptedStep[], options: { provider?: string; model?: string } = {}) {
    this.steps = [...steps];
    this.provider = options.provider ?? 'scripted';
    this.model = options.model ?? 'scripted';
  }

  /** How many steps have not been used yet. */
  get remaining(): number {
    return this.steps.length - this.callCount;
  }

  /**
   * Returns the next scripted answer.
   *
   * @throws ToolRuntimeError when the script has run out, or a scripted Error as is.
   * @throws ToolCancelledError when the request's signal is aborted.
   */
  async generate(request: LlmRequest): Promise<LlmResponse> {
    const index = this.callCount;
    this.calls.push({
      messages: structuredClone([...request.messages]),
      toolNames: request.tools.map((tool) => tool.name),
    });
    if (request.signal?.aborted) throw new ToolCancelledError('The scripted model call was canceled.');
    if (index >= this.steps.length) {
      throw new ToolRuntimeError(
        `ScriptedLLM ran out of responses: it has ${this.steps.length} and this is call ${index + 1}; add a response to the script.`,
        { provider: this.provider, retryable: false },
      );
    }
    this.callCount += 1;
    const step = this.steps[index];
    if (step instanceof Error) throw step;
    const response = typeof step === 'function' ? await step(request, index) : step;
    const toolCalls: LlmToolCall[] = (response.toolCalls ?? []).map((call, position) => ({
      id: call.id ?? `call_${index + 1}_${position + 1}`,
      name: call.name,
      arguments: call.arguments ?? {},
    }));
    return {
      text: response.text ?? null,
      toolCalls,
      ...(response.usage ? { usage: { ...response.usage } } : {}),
      finishReason: response.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop'),
    };
  }
}
