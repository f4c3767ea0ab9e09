import type { LLM, LlmMessage, LlmRequest, LlmResponse, LlmToolCall } from '../llm';
import { toOpenAITools } from '../to-openai-tools';
import type { OpenAIChatLLMOptions } from './openai-chat-llm';
import { postModelCall } from './post-model-call';
import { isRecord, joinSystemText, malformedResponse, toArgumentsString } from './provider-message-parts';
import { readApiKey } from './read-api-key';
import { readTokenUsage } from './read-token-usage';

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
    const body: Record<string, unknown> = {
      model: this.model,
      input: request.messages.flatMap(toInputItems),
      store: false,
    };
    const instructions = joinSystemText(request.messages);
    if (instructions !== undefined) body.instructions = instructions;
    if (request.tools.length > 0)
      body.tools = toOpenAITools(request.tools, { strict: this.options.strict ?? true, api: 'responses' });
    if (this.options.temperature !== undefined) body.temperature = this.options.temperature;
    if (this.options.maxTokens !== undefined) body.max_output_tokens = this.options.maxTokens;
    const data = await postModelCall({
      provider: this.provider,
      options: this.options,
      defaultBaseUrl: 'https://api.openai.com/v1',
      path: '/responses',
      apiKey: key,
      authHeaders: { authorization: `Bearer ${key}` },
      body,
      signal: request.signal,
    });
    return this.readResponse(data);
  }

  private readResponse(data: Record<string, unknown>): LlmResponse {
    if (!Array.isArray(data.output)) throw malformedResponse(this.provider, 'an output array');
    const texts: string[] = [];
    const toolCalls: LlmToolCall[] = [];
    for (const item of data.output) {
      if (!isRecord(item)) continue;
      if (item.type === 'message' && Array.isArray(item.content)) {
        for (const part of item.content)
          if (isRecord(part) && part.type === 'output_text' && typeof part.text === 'string')
            texts.push(part.text);
      } else if (item.type === 'function_call' && typeof item.name === 'string') {
        const args = item.arguments;
        toolCalls.push({
          id: typeof item.call_id === 'string' ? item.call_id : String(item.id ?? `call_${toolCalls.length}`),
          name: item.name,
          arguments: typeof args === 'string' || isRecord(args) ? args : '{}',
        });
      }
    }
    const usage = readTokenUsage(data.usage, 'input_tokens', 'output_tokens');
    return {
      text: texts.length ? texts.join('') : null,
      toolCalls,
      ...(usage ? { usage } : {}),
      ...(typeof data.status === 'string'
        ? { finishReason: toolCalls.length ? 'tool_calls' : data.status }
        : {}),
    };
  }
}

function toInputItems(message: LlmMessage): Record<string, unknown>[] {
  switch (message.role) {
    case 'system':
      return [];
    case 'user':
      return [{ role: 'user', content: message.content }];
    case 'assistant': {
      const items: Record<string, unknown>[] = [];
      if (message.content) items.push({ role: 'assistant', content: message.content });
      for (const call of message.toolCalls ?? []) {
        items.push({
          type: 'function_call',
          call_id: call.id,
          name: call.name,
          arguments: toArgumentsString(call.arguments),
        });
      }
      return items;
    }
    case 'tool':
      return [{ type: 'function_call_output', call_id: message.toolCallId, output: message.content }];
  }
}
