import type { LLM, LlmRequest, LlmResponse } from '../llm';
import { toGeminiTools } from '../to-gemini-tools';
import {
  loadGeminiContentFormat,
  loadPostModelCall,
  loadProviderMessageParts,
} from './load-provider-formats';
import { readApiKey } from './read-api-key';

/** Options of {@link GeminiLLM}. */
export interface GeminiLLMOptions {
  /** Model id, e.g. `gemini-2.5-flash`. */
  model: string;
  /** API key; read from `GEMINI_API_KEY`, then `GOOGLE_API_KEY`, at each call when absent. */
  apiKey?: string;
  /** API base (default `https://generativelanguage.googleapis.com/v1beta`). */
  baseUrl?: string;
  /** Sampling temperature. */
  temperature?: number;
  /** `maxOutputTokens`. */
  maxTokens?: number;
  /** Per-request timeout in milliseconds (default 60 000). */
  timeoutMs?: number;
  /** Extra headers. */
  headers?: Record<string, string>;
}

/** Gemini Developer API (`POST {baseUrl}/models/{model}:generateContent`) with function declarations. */
export class GeminiLLM implements LLM {
  readonly provider = 'gemini';
  readonly model: string;
  private readonly options: GeminiLLMOptions;

  constructor(options: GeminiLLMOptions) {
    this.options = { ...options };
    this.model = options.model;
  }

  /**
   * Runs one generateContent call; function responses of one turn go back in one user turn, and each
   * call's `thoughtSignature` travels back with it.
   *
   * @throws ToolRuntimeError for HTTP and transport failures (provider, status, `retryable`), or a blocked prompt.
   * @throws ToolInputError when neither `GEMINI_API_KEY` nor `GOOGLE_API_KEY` is set and no key was given.
   * @throws ToolDefinitionError when a tool cannot be declared.
   */
  async generate(request: LlmRequest): Promise<LlmResponse> {
    const key = readApiKey(this.provider, this.options.apiKey, [
      'GEMINI_API_KEY',
      'GOOGLE_API_KEY',
    ]) as string;
    const format = loadGeminiContentFormat();
    const body: Record<string, unknown> = { contents: format.toGeminiContents(request.messages) };
    const system = loadProviderMessageParts().joinSystemText(request.messages);
    if (system !== undefined) body.systemInstruction = { parts: [{ text: system }] };
    if (request.tools.length > 0) body.tools = toGeminiTools(request.tools);
    const generationConfig: Record<string, unknown> = {};
    if (this.options.temperature !== undefined) generationConfig.temperature = this.options.temperature;
    if (this.options.maxTokens !== undefined) generationConfig.maxOutputTokens = this.options.maxTokens;
    if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
    const data = await loadPostModelCall().postModelCall({
      provider: this.provider,
      options: this.options,
      defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
      path: `/models/${encodeURIComponent(this.model)}:generateContent`,
      apiKey: key,
      authHeaders: { 'x-goog-api-key': key },
      body,
      signal: request.signal,
    });
    return format.readGeminiResponse(this.provider, data);
  }
}
