import type { LLM, LlmMessage, LlmRequest, LlmResponse, LlmToolCall } from '../llm';
import { toAnthropicTools } from '../to-anthropic-tools';
import { postModelCall } from './post-model-call';
import { isRecord, joinSystemText, malformedResponse, toArgumentsObject } from './provider-message-parts';
import { readApiKey } from './read-api-key';
import { readTokenUsage } from './read-token-usage';

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
    const body: Record<string, unknown> = {
      model: this.model,
      max_tokens: this.options.maxTokens ?? 4096,
      messages: toAnthropicMessages(request.messages),
    };
    const system = joinSystemText(request.messages);
    if (system !== undefined) body.system = system;
    if (request.tools.length > 0) body.tools = toAnthropicTools(request.tools);
    if (this.options.temperature !== undefined) body.temperature = this.options.temperature;
    const data = await postModelCall({
      provider: this.provider,
      options: this.options,
      defaultBaseUrl: 'https://api.anthropic.com',
      path: '/v1/messages',
      apiKey: key,
      authHeaders: { 'x-api-key': key, 'anthropic-version': this.options.apiVersion ?? '2023-06-01' },
      body,
      signal: request.signal,
    });
    return this.readResponse(data);
  }

  private readResponse(data: Record<string, unknown>): LlmResponse {
    if (!Array.isArray(data.content)) throw malformedResponse(this.provider, 'a content array');
    const texts: string[] = [];
    const toolCalls: LlmToolCall[] = [];
    for (const block of data.content) {
      if (!isRecord(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
      else if (block.type === 'tool_use' && typeof block.name === 'string' && typeof block.id === 'string') {
        toolCalls.push({
          id: block.id,
          name: block.name,
          arguments: isRecord(block.input) ? block.input : {},
        });
      }
    }
    const usage = readTokenUsage(data.usage, 'input_tokens', 'output_tokens');
    return {
      text: texts.length ? texts.join('') : null,
      toolCalls,
      ...(usage ? { usage } : {}),
      ...(typeof data.stop_reason === 'string' ? { finishReason: data.stop_reason } : {}),
    };
  }
}

function toAnthropicMessages(messages: readonly LlmMessage[]): Record<string, unknown>[] {
  const result: Record<string, unknown>[] = [];
  let results: Record<string, unknown>[] | undefined;
  for (const message of messages) {
    if (message.role === 'tool') {
      const block: Record<string, unknown> = {
        type: 'tool_result',
        tool_use_id: message.toolCallId,
        content: message.content,
      };
      if (message.isError) block.is_error = true;
      if (results) results.push(block);
      else {
        results = [block];
        result.push({ role: 'user', content: results });
      }
      continue;
    }
    results = undefined;
    if (message.role === 'system') continue;
    if (message.role === 'user') result.push({ role: 'user', content: message.content });
    else {
      const blocks: Record<string, unknown>[] = [];
      if (message.content) blocks.push({ type: 'text', text: message.content });
      for (const call of message.toolCalls ?? []) {
        blocks.push({
          type: 'tool_use',
          id: call.id,
          name: call.name,
          input: toArgumentsObject(call.arguments),
        });
      }
      // Anthropic rejects empty assistant turns; one without text or calls carries nothing.
      if (blocks.length > 0) result.push({ role: 'assistant', content: blocks });
    }
  }
  return result;
}
