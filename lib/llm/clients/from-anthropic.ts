import { ToolInputError } from '../../errors/tool-input-error';
import type { LLM, LlmRequest, LlmResponse } from '../llm';
import { loadAnthropicMessagesFormat, loadClientCallError } from '../providers/load-provider-formats';
import type { AnthropicClient } from './anthropic-client';
import { assertModelOption } from './assert-model-option';

/** Options of {@link fromAnthropic}. */
export interface FromAnthropicOptions {
  /** Model id, e.g. `claude-sonnet-4-5`. */
  model: string;
  /** `max_tokens` (required by the API; default 4096). */
  maxTokens?: number;
  /** Sampling temperature. */
  temperature?: number;
}

/**
 * Wraps an `@anthropic-ai/sdk` client the caller configured (key, base URL, proxy, retries) as an
 * {@link LLM} for `runToolLoop` and `agent.infer`. The client's own retries and timeouts apply; the run's
 * signal aborts the request.
 *
 * @example
 * const llm = fromAnthropic(new Anthropic(), { model: 'claude-sonnet-4-5' });
 *
 * @throws ToolInputError when `model` is missing or the client has no `messages.create`.
 */
export function fromAnthropic(client: AnthropicClient, options: FromAnthropicOptions): LLM {
  assertModelOption('fromAnthropic', options);
  if (typeof client?.messages?.create !== 'function') {
    throw new ToolInputError(
      "fromAnthropic needs an @anthropic-ai/sdk client with messages.create(), e.g. fromAnthropic(new Anthropic(), { model: 'claude-sonnet-4-5' }).",
    );
  }
  return new AnthropicClientLLM(client, options);
}

class AnthropicClientLLM implements LLM {
  readonly provider = 'anthropic';
  readonly model: string;

  constructor(
    private readonly client: AnthropicClient,
    private readonly options: FromAnthropicOptions,
  ) {
    this.model = options.model;
  }

  async generate(request: LlmRequest): Promise<LlmResponse> {
    const format = loadAnthropicMessagesFormat();
    const body = format.buildAnthropicMessagesBody(request, {
      model: this.model,
      maxTokens: this.options.maxTokens ?? 4096,
      temperature: this.options.temperature,
    });
    let data: unknown;
    try {
      data = await this.client.messages.create(body, request.signal ? { signal: request.signal } : undefined);
    } catch (error) {
      throw loadClientCallError().toClientCallError(error, {
        provider: this.provider,
        clientPackage: '@anthropic-ai/sdk',
        client: this.client,
        signal: request.signal,
      });
    }
    return format.readAnthropicMessage(this.provider, data);
  }
}
