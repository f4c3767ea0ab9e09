import { ToolInputError } from '../../errors/tool-input-error';
import type { LLM, LlmRequest, LlmResponse } from '../llm';
import {
  loadClientCallError,
  loadGeminiContentFormat,
  loadProviderMessageParts,
} from '../providers/load-provider-formats';
import { toGeminiTools } from '../to-gemini-tools';
import { assertModelOption } from './assert-model-option';
import type { GeminiClient, GeminiGenerateContentParams } from './gemini-client';

/** Options of {@link fromGemini}. */
export interface FromGeminiOptions {
  /** Model id, e.g. `gemini-2.5-flash`. */
  model: string;
  /** Sampling temperature. */
  temperature?: number;
  /** `maxOutputTokens`. */
  maxTokens?: number;
}

/**
 * Wraps a `@google/genai` client the caller configured (key or Vertex AI, base URL, retry options) as an
 * {@link LLM} for `runToolLoop` and `agent.infer`. Tools are declared with `parametersJsonSchema`; each
 * call's `thoughtSignature` travels back with it; the run's signal aborts the request. Retries happen only
 * when the client was given `httpOptions.retryOptions`.
 *
 * @example
 * const llm = fromGemini(new GoogleGenAI({ apiKey }), { model: 'gemini-2.5-flash' });
 *
 * @throws ToolInputError when `model` is missing or the client has no `models.generateContent`.
 */
export function fromGemini(ai: GeminiClient, options: FromGeminiOptions): LLM {
  assertModelOption('fromGemini', options);
  if (typeof ai?.models?.generateContent !== 'function') {
    throw new ToolInputError(
      "fromGemini needs a @google/genai client with models.generateContent(), e.g. fromGemini(new GoogleGenAI({ apiKey }), { model: 'gemini-2.5-flash' }).",
    );
  }
  return new GeminiClientLLM(ai, options);
}

class GeminiClientLLM implements LLM {
  readonly provider = 'gemini';
  readonly model: string;

  constructor(
    private readonly ai: GeminiClient,
    private readonly options: FromGeminiOptions,
  ) {
    this.model = options.model;
  }

  async generate(request: LlmRequest): Promise<LlmResponse> {
    const config: NonNullable<GeminiGenerateContentParams['config']> = {};
    const format = loadGeminiContentFormat();
    const system = loadProviderMessageParts().joinSystemText(request.messages);
    if (system !== undefined) config.systemInstruction = { parts: [{ text: system }] };
    if (request.tools.length > 0)
      config.tools = toGeminiTools(request.tools, { format: 'parametersJsonSchema' });
    if (this.options.temperature !== undefined) config.temperature = this.options.temperature;
    if (this.options.maxTokens !== undefined) config.maxOutputTokens = this.options.maxTokens;
    if (request.signal) config.abortSignal = request.signal;
    const params: GeminiGenerateContentParams = {
      model: this.model,
      contents: format.toGeminiContents(request.messages),
      ...(Object.keys(config).length > 0 ? { config } : {}),
    };
    let data: unknown;
    try {
      data = await this.ai.models.generateContent(params);
    } catch (error) {
      throw loadClientCallError().toClientCallError(error, {
        provider: this.provider,
        clientPackage: '@google/genai',
        client: this.ai,
        signal: request.signal,
      });
    }
    return format.readGeminiResponse(this.provider, data);
  }
}
