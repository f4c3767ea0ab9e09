import type { BaseTool } from '../tools/base-tool';
import type { ToolResult } from '../tools/tool-result';

/** One tool call a model asked for. */
export interface LlmToolCall {
  /** The provider's call id (generated when the provider has none, e.g. Gemini). */
  id: string;
  /** The tool's name. */
  name: string;
  /** The arguments as the model sent them: a JSON string (OpenAI) or an object (Anthropic, Gemini). */
  arguments: string | Record<string, unknown>;
  /** Provider data that must travel back with the call (e.g. Gemini's `thoughtSignature`). */
  providerData?: Record<string, unknown>;
}

/** A system instruction. */
export interface LlmSystemMessage {
  role: 'system';
  content: string;
}

/** A user turn. */
export interface LlmUserMessage {
  role: 'user';
  content: string;
}

/** A model turn: text, tool calls, or both. */
export interface LlmAssistantMessage {
  role: 'assistant';
  content: string | null;
  toolCalls?: LlmToolCall[];
}

/** The result of one tool call, sent back to the model. */
export interface LlmToolMessage {
  role: 'tool';
  /** The id of the call this answers. */
  toolCallId: string;
  /** The tool's name (Gemini correlates by name). */
  name: string;
  /** The result (or the structured error) as text, usually JSON. */
  content: string;
  /**
   * The tool's rich result, when it returned a {@link ToolResult}; providers that accept media in tool
   * results (Anthropic, OpenAI Responses) send its parts, the others send `content`, its text form.
   */
  result?: ToolResult;
  /** Whether the call failed (the content then describes the problem). */
  isError?: boolean;
}

/** A provider-neutral conversation message. */
export type LlmMessage = LlmSystemMessage | LlmUserMessage | LlmAssistantMessage | LlmToolMessage;

/** Token counts of one model call, when the provider reports them. */
export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
}

/** What an {@link LLM} is asked. */
export interface LlmRequest {
  /** The conversation so far. */
  messages: readonly LlmMessage[];
  /** The tools the model may call (each implementation exports them in its provider's format). */
  tools: readonly BaseTool[];
  /** Aborts the HTTP request. */
  signal?: AbortSignal;
}

/** What an {@link LLM} answered. */
export interface LlmResponse {
  /** The text of the answer, or null when there is none. */
  text: string | null;
  /** The tool calls asked for, in order (empty when none). */
  toolCalls: LlmToolCall[];
  /** Token counts, when reported. */
  usage?: LlmUsage;
  /** The provider's stop reason (`tool_calls`, `end_turn`, `STOP`…). */
  finishReason?: string;
}

/**
 * A chat model that can call tools: messages and tools in, text and/or tool calls out. Implementations:
 * `OpenAIChatLLM`, `OpenAIResponsesLLM`, `AnthropicLLM`, `GeminiLLM`, `OpenAICompatibleLLM`, the wrappers
 * of official clients `fromOpenAI`, `fromAnthropic`, `fromGemini`, and `ScriptedLLM` for tests.
 */
export interface LLM {
  /** Provider id for telemetry and errors (`openai`, `anthropic`, `gemini`, `ollama`, `scripted`). */
  readonly provider: string;
  /** Model id. */
  readonly model: string;
  /** Runs one model call. */
  generate(request: LlmRequest): Promise<LlmResponse>;
}
