import type { LLM, LlmRequest, LlmResponse } from '../llm';
import { loadAnthropicMessagesFormat, loadPostModelCall } from './load-provider-formats';
import { readApiKey } from './read-api-key';

/** Options of {@link AnthropicLLM}. */
export interface AnthropicLLMOptions {
  /** Model id, e.g. `claude-sonnet-4-5`. */
  model: string;
  /** API key; read from `ANTHROPIC_API_KEY` at each call when absent. */
  apiKey?: string;
  /** API base (default `https://api.anthropic.com`); requests go to `{baseUrl}/v1/messages`. */
  baseUrl?: string;
  /** `max_tokens` (required by the API; default 4096). */
  maxTokens?: number;
  /** Sampling temperature. */
  temperature?: number;
  /** `anthropic-version` header (default `2023-06-01`). */
  apiVersion?: string;
  /** Per-request timeout in milliseconds (default 60 000). */
  timeoutMs?: number;
  /** Extra headers (e.g. `anthropic-beta`). */
  headers?: Record<string, string>;
}

/** Anthropic Messages API (`POST {baseUrl}/v1/messages`) with client tools. */
export class AnthropicLLM implements LLM {
  readonly provider = 'anthropic';
  readonly model: string;
  private readonly options: AnthropicLLMOptions;

  constructor(options: AnthropicLLMOptions) {
    this.options = { ...options };
    this.model = options.model;
  }

  /**
   * Runs one Messages call; tool results of one turn go back in one user message.
   *
   * @throws ToolRuntimeError for HTTP and transport failures (provider, status, `retryable`).
   * @throws ToolInputError when `ANTHROPIC_API_KEY` is not set and no key was given.
   * @throws ToolDefinitionError when a tool cannot be declared.
   */
  async generate(request: LlmRequest): Promise<LlmResponse> {
    const key = readApiKey(this.provider, this.options.apiKey, ['ANTHROPIC_API_KEY']) as string;
    const format = loadAnthropicMessagesFormat();
    const body = format.buildAnthropicMessagesBody(request, {
      model: this.model,
      maxTokens: this.options.maxTokens ?? 4096,
      temperature: this.options.temperature,
    });
    const data = await loadPostModelCall().postModelCall({
      provider: this.provider,
      options: this.options,
      defaultBaseUrl: 'https://api.anthropic.com',
      path: '/v1/messages',
      apiKey: key,
      authHeaders: { 'x-api-key': key, 'anthropic-version': this.options.apiVersion ?? '2023-06-01' },
      body,
      signal: request.signal,
    });
    return format.readAnthropicMessage(this.provider, data);
  }
}
