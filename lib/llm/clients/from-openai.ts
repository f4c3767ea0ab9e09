import { ToolInputError } from '../../errors/tool-input-error';
import type { LLM, LlmRequest, LlmResponse } from '../llm';
import {
  loadClientCallError,
  loadOpenAIChatFormat,
  loadOpenAIResponsesFormat,
} from '../providers/load-provider-formats';
import type { OpenAIClient } from './openai-client';
import { assertModelOption } from './assert-model-option';

/** Options of {@link fromOpenAI}. */
export interface FromOpenAIOptions {
  /** Model id (or Azure deployment name), e.g. `gpt-4o-mini`. */
  model: string;
  /** The API to call: Chat Completions (default) or Responses (stateless, `store: false`). */
  api?: 'chat' | 'responses';
  /** Declare tools in strict mode (default true). */
  strict?: boolean;
  /** Sampling temperature. */
  temperature?: number;
  /** Cap on generated tokens (`max_completion_tokens` / `max_output_tokens`). */
  maxTokens?: number;
  /** Provider id for telemetry and errors (default `openai`; e.g. `azure-openai`). */
  provider?: string;
}

/**
 * Wraps an `openai` client the caller configured (key, base URL, Azure, proxy, retries) as an {@link LLM}
 * for `runToolLoop` and `agent.infer`. The client's own retries and timeouts apply; the run's signal
 * aborts the request.
 *
 * @example
 * const llm = fromOpenAI(new OpenAI(), { model: 'gpt-4o-mini' });
 * const result = await runToolLoop(agent, 'What is 2 + 3?', { llm });
 *
 * @throws ToolInputError when `model` is missing, `api` is unknown, or the client lacks the method the API needs.
 */
export function fromOpenAI(client: OpenAIClient, options: FromOpenAIOptions): LLM {
  assertModelOption('fromOpenAI', options);
  const api = options.api ?? 'chat';
  if (api !== 'chat' && api !== 'responses') {
    throw new ToolInputError(
      `fromOpenAI got the unknown api ${JSON.stringify(api)}; use 'chat' (Chat Completions) or 'responses'.`,
    );
  }
  const method = api === 'chat' ? client?.chat?.completions?.create : client?.responses?.create;
  if (typeof method !== 'function') {
    throw new ToolInputError(
      `fromOpenAI needs an openai client with ${api === 'chat' ? 'chat.completions.create' : 'responses.create'}(), e.g. fromOpenAI(new OpenAI(), { model: 'gpt-4o-mini' }).`,
    );
  }
  return new OpenAIClientLLM(client, { ...options, api });
}

class OpenAIClientLLM implements LLM {
  readonly provider: string;
  readonly model: string;

  constructor(
    private readonly client: OpenAIClient,
    private readonly options: FromOpenAIOptions & { api: 'chat' | 'responses' },
  ) {
    this.provider = options.provider ?? 'openai';
    this.model = options.model;
  }

  async generate(request: LlmRequest): Promise<LlmResponse> {
    const settings = {
      model: this.model,
      strict: this.options.strict ?? true,
      temperature: this.options.temperature,
      maxTokens: this.options.maxTokens,
    };
    const requestOptions = request.signal ? { signal: request.signal } : undefined;
    if (this.options.api === 'responses') {
      const format = loadOpenAIResponsesFormat();
      const body = format.buildOpenAIResponsesBody(request, settings);
      return format.readOpenAIResponse(
        this.provider,
        await this.call(() => this.client.responses.create(body, requestOptions), request),
      );
    }
    const format = loadOpenAIChatFormat();
    const body = format.buildOpenAIChatBody(request, settings);
    return format.readOpenAIChatCompletion(
      this.provider,
      await this.call(() => this.client.chat.completions.create(body, requestOptions), request),
    );
  }

  private async call(send: () => PromiseLike<unknown>, request: LlmRequest): Promise<unknown> {
    try {
      return await send();
    } catch (error) {
      throw loadClientCallError().toClientCallError(error, {
        provider: this.provider,
        clientPackage: 'openai',
        client: this.client,
        signal: request.signal,
      });
    }
  }
}
