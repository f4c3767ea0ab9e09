import type { RunContext } from '../runtime/run-context';
import type { BaseTool } from '../tools/base-tool';
import type { LLM, LlmMessage, LlmUsage } from './llm';

/**
 * What the tool loop needs from its caller (an Agent satisfies it): the tools to offer, and a call path
 * that validates, checks policy and approval, counts `maxToolCalls` and honours cancellation.
 */
export interface ToolLoopCaller {
  /** The tools the model may call. */
  readonly tools: ReadonlyMap<string, BaseTool> | Iterable<BaseTool>;
  /** Runs one tool through validation, policy, approval, budget and cancellation. */
  callToolInContext(name: string, context: RunContext, args?: Record<string, unknown>): Promise<unknown>;
}

/** The trace entry of one tool call the model asked for. */
export interface ToolCallTrace {
  /** The loop step (1-based) the call belongs to. */
  step: number;
  /** The provider's call id. */
  id: string;
  /** The tool name the model asked for. */
  name: string;
  /** The arguments as the model sent them (a JSON string or an object). */
  arguments: string | Record<string, unknown>;
  /** `ok`: ran and returned; `error`: failed and the problem was sent back; `skipped`: not run (a repeat of a failed call). */
  status: 'ok' | 'error' | 'skipped';
  /** The tool's result, when it ran. */
  result?: unknown;
  /** The problem sent back to the model, when it failed. */
  error?: ToolCallProblem;
  /** How long the call took, in milliseconds. */
  durationMs: number;
}

/** A tool-call failure as the model sees it. */
export interface ToolCallProblem {
  /** `invalid_arguments`, `unknown_tool`, `denied`, `approval_required`, `tool_error`, `repeated_call`. */
  type: string;
  /** The error code (`TOOL_VALIDATION`, `ACTION_DENIED`…). */
  code: string;
  /** What went wrong and how to fix it. */
  message: string;
  /** Path-addressed argument problems, for validation errors. */
  issues?: { path: string; message: string }[];
  /** The tools that exist, for an unknown tool. */
  availableTools?: string[];
}

/** Telemetry of the loop's model calls. */
export type ToolLoopEvent =
  | {
      type: 'llm-call-start';
      step: number;
      provider: string;
      model: string;
      runId: string;
      messageCount: number;
      toolCount: number;
    }
  | {
      type: 'llm-call-end';
      step: number;
      provider: string;
      model: string;
      runId: string;
      durationMs: number;
      usage?: LlmUsage;
      toolCallCount: number;
      finishReason?: string;
    }
  | {
      type: 'llm-call-error';
      step: number;
      provider: string;
      model: string;
      runId: string;
      durationMs: number;
      error: Error;
    };

/** Options of `runToolLoop`. */
export interface RunToolLoopOptions {
  /** The model. */
  llm: LLM;
  /** The run (budget, cancellation, permissions); a new one when absent. */
  context?: RunContext;
  /** Most model steps in this loop (default 10); `context.budget.maxSteps` applies as well. */
  maxSteps?: number;
  /** A system instruction put before the prompt. */
  system?: string;
  /** Earlier conversation, put before the prompt. */
  history?: readonly LlmMessage[];
  /** How many failures in a row one tool may return to the model before the loop stops (default 3). */
  maxToolRetries?: number;
  /** Run the tool calls of one step concurrently (default true); false runs them in order. */
  parallelToolCalls?: boolean;
  /** Longest tool result text sent back to the model (default 20 000 characters; longer is cut and marked). */
  maxResultChars?: number;
  /** Receives telemetry events of model calls; a listener that throws is ignored. */
  onEvent?: (event: ToolLoopEvent) => void;
}

/** Token and call counts of a loop run. */
export interface ToolLoopUsage {
  inputTokens: number;
  outputTokens: number;
  llmCalls: number;
  toolCalls: number;
}

/** What `runToolLoop` returns. */
export interface ToolLoopResult {
  /** The model's final text ('' when it ended without text). */
  text: string;
  /** How many model steps ran. */
  steps: number;
  /** Every tool call the model asked for, in order, with its outcome. */
  toolCalls: ToolCallTrace[];
  /** Tokens and calls used by this loop. */
  usage: ToolLoopUsage;
  /** The whole conversation, including the final answer (to continue it later). */
  messages: LlmMessage[];
}
