import type { LLM, LlmRequest, LlmResponse } from '../llm';
import { loadOpenAIChatFormat, loadPostModelCall } from './load-provider-formats';
import { readApiKey } from './read-api-key';

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
    const format = loadOpenAIChatFormat();
    const body = format.buildOpenAIChatBody(request, {
      model: this.model,
      strict: this.options.strict ?? this.settings.defaultStrict,
      temperature: this.options.temperature,
      maxTokens: this.options.maxTokens,
    });
    const data = await loadPostModelCall().postModelCall({
      provider: this.provider,
      options: this.options,
      defaultBaseUrl: 'https://api.openai.com/v1',
      path: '/chat/completions',
      apiKey: key,
      authHeaders: key ? { authorization: `Bearer ${key}` } : {},
      body,
      signal: request.signal,
    });
    return format.readOpenAIChatCompletion(this.provider, data);
  }
}
