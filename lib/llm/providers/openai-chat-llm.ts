import type { LLM, LlmMessage, LlmRequest, LlmResponse, LlmToolCall } from '../llm';
import { toOpenAITools } from '../to-openai-tools';
import { postModelCall } from './post-model-call';
import { isRecord, malformedResponse, toArgumentsString } from './provider-message-parts';
import { readApiKey } from './read-api-key';
import { readTokenUsage } from './read-token-usage';

/** Options of {@link OpenAIChatLLM}. */
export interface OpenAIChatLLMOptions {
  /** Model id, e.g. `gpt-4o-mini`. */
  model: string;
  /** API key; read from `OPENAI_API_KEY` at each call when absent. */
  apiKey?: string;
  /** API base including the version (default `https://api.openai.com/v1`). */
  baseUrl?: string;
  /** Declare tools in strict mode (default true). */
  strict?: boolean;
  /** Sampling temperature. */
  temperature?: number;
  /** Cap on generated tokens (`max_completion_tokens`). */
  maxTokens?: number;
  /** Per-request timeout in milliseconds (default 60 000). */
  timeoutMs?: number;
  /** Extra headers (e.g. `OpenAI-Organization`). */
  headers?: Record<string, string>;
}

/** Settings a subclass (an OpenAI-compatible server) changes. */
export interface OpenAIChatProviderSettings {
  provider: string;
  keyVariables: readonly string[];
  keyRequired: boolean;
  defaultStrict: boolean;
}

/** OpenAI Chat Completions (`POST {baseUrl}/chat/completions`) with function tools. */
export class OpenAIChatLLM implements LLM {
  readonly provider: string;
  readonly model: string;
  private readonly options: OpenAIChatLLMOptions;
  private readonly settings: OpenAIChatProviderSettings;

  constructor(options: OpenAIChatLLMOptions, settings?: OpenAIChatProviderSettings) {
    this.options = { ...options };
    this.settings = settings ?? {
      provider: 'openai',
      keyVariables: ['OPENAI_API_KEY'],
      keyRequired: true,
      defaultStrict: true,
    };
    this.provider = this.settings.provider;
    this.model = options.model;
  }

  /**
   * Runs one chat completion.
   *
   * @throws ToolRuntimeError for HTTP and transport failures (provider, status, `retryable`).
   * @throws ToolInputError when no API key is set and one is required.
   * @throws ToolDefinitionError when a tool cannot be declared.
   */
  async generate(request: LlmRequest): Promise<LlmResponse> {
    const key = readApiKey(
      this.provider,
      this.options.apiKey,
      this.settings.keyVariables,
      this.settings.keyRequired,
    );
    const body: Record<string, unknown> = {
      model: this.model,
      messages: request.messages.map(toChatMessage),
    };
    if (request.tools.length > 0) {
      body.tools = toOpenAITools(request.tools, {
        strict: this.options.strict ?? this.settings.defaultStrict,
        api: 'chat',
      });
    }
    if (this.options.temperature !== undefined) body.temperature = this.options.temperature;
    if (this.options.maxTokens !== undefined) body.max_completion_tokens = this.options.maxTokens;
    const data = await postModelCall({
      provider: this.provider,
      options: this.options,
      defaultBaseUrl: 'https://api.openai.com/v1',
      path: '/chat/completions',
      apiKey: key,
      authHeaders: key ? { authorization: `Bearer ${key}` } : {},
      body,
      signal: request.signal,
    });
    return this.readResponse(data);
  }

  private readResponse(data: Record<string, unknown>): LlmResponse {
    const choice = Array.isArray(data.choices) ? (data.choices[0] as unknown) : undefined;
    if (!isRecord(choice) || !isRecord(choice.message))
      throw malformedResponse(this.provider, 'choices[0].message');
    const message = choice.message;
    const toolCalls: LlmToolCall[] = [];
    for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      if (!isRecord(call) || !isRecord(call.function) || typeof call.function.name !== 'string') continue;
      const args = call.function.arguments;
      toolCalls.push({
        id: typeof call.id === 'string' ? call.id : `call_${toolCalls.length}`,
        name: call.function.name,
        arguments: typeof args === 'string' || isRecord(args) ? args : '{}',
      });
    }
    const usage = readTokenUsage(data.usage, 'prompt_tokens', 'completion_tokens');
    return {
      text: typeof message.content === 'string' ? message.content : null,
      toolCalls,
      ...(usage ? { usage } : {}),
      ...(typeof choice.finish_reason === 'string' ? { finishReason: choice.finish_reason } : {}),
    };
  }
}

function toChatMessage(message: LlmMessage): Record<string, unknown> {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant': {
      const hasCalls = Boolean(message.toolCalls?.length);
      // Chat Completions accepts a null content only next to tool calls.
      const result: Record<string, unknown> = {
        role: 'assistant',
        content: message.content ?? (hasCalls ? null : ''),
      };
      if (message.toolCalls?.length) {
        result.tool_calls = message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: toArgumentsString(call.arguments) },
        }));
      }
      return result;
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}
