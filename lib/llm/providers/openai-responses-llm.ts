import type { LLM, LlmRequest, LlmResponse } from '../llm';
import type { OpenAIChatLLMOptions } from './openai-chat-llm';
import { loadOpenAIResponsesFormat, loadPostModelCall } from './load-provider-formats';
import { readApiKey } from './read-api-key';

/** Options of {@link OpenAIResponsesLLM} (the same as the chat model's). */
export type OpenAIResponsesLLMOptions = OpenAIChatLLMOptions;

/**
 * OpenAI Responses API (`POST {baseUrl}/responses`) with function tools. Stateless: the whole conversation
 * is sent each time (`store: false`); system messages become `instructions`.
 */
export class OpenAIResponsesLLM implements LLM {
  readonly provider = 'openai';
  readonly model: string;
  private readonly options: OpenAIResponsesLLMOptions;

  constructor(options: OpenAIResponsesLLMOptions) {
    this.options = { ...options };
    this.model = options.model;
  }

  /**
   * Runs one Responses call.
   *
   * @throws ToolRuntimeError for HTTP and transport failures (provider, status, `retryable`).
   * @throws ToolInputError when `OPENAI_API_KEY` is not set and no key was given.
   * @throws ToolDefinitionError when a tool cannot be declared.
   */
  async generate(request: LlmRequest): Promise<LlmResponse> {
    const key = readApiKey(this.provider, this.options.apiKey, ['OPENAI_API_KEY']) as string;
    const format = loadOpenAIResponsesFormat();
    const body = format.buildOpenAIResponsesBody(request, {
      model: this.model,
      strict: this.options.strict ?? true,
      temperature: this.options.temperature,
      maxTokens: this.options.maxTokens,
    });
    const data = await loadPostModelCall().postModelCall({
      provider: this.provider,
      options: this.options,
      defaultBaseUrl: 'https://api.openai.com/v1',
      path: '/responses',
      apiKey: key,
      authHeaders: { authorization: `Bearer ${key}` },
      body,
      signal: request.signal,
    });
    return format.readOpenAIResponse(this.provider, data);
  }
}
