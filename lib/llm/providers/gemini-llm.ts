import { randomUUID } from 'node:crypto';
import type { LLM, LlmMessage, LlmRequest, LlmResponse, LlmToolCall } from '../llm';
import { toGeminiTools } from '../to-gemini-tools';
import { postModelCall } from './post-model-call';
import {
  isRecord,
  joinSystemText,
  malformedResponse,
  toArgumentsObject,
  toResultObject,
} from './provider-message-parts';
import { readApiKey } from './read-api-key';
import { readTokenUsage } from './read-token-usage';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';

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
    const body: Record<string, unknown> = { contents: toContents(request.messages) };
    const system = joinSystemText(request.messages);
    if (system !== undefined) body.systemInstruction = { parts: [{ text: system }] };
    if (request.tools.length > 0) body.tools = toGeminiTools(request.tools);
    const generationConfig: Record<string, unknown> = {};
    if (this.options.temperature !== undefined) generationConfig.temperature = this.options.temperature;
    if (this.options.maxTokens !== undefined) generationConfig.maxOutputTokens = this.options.maxTokens;
    if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
    const data = await postModelCall({
      provider: this.provider,
      options: this.options,
      defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
      path: `/models/${encodeURIComponent(this.model)}:generateContent`,
      apiKey: key,
      authHeaders: { 'x-goog-api-key': key },
      body,
      signal: request.signal,
    });
    return this.readResponse(data);
  }

  private readResponse(data: Record<string, unknown>): LlmResponse {
    const candidate = Array.isArray(data.candidates) ? (data.candidates[0] as unknown) : undefined;
    if (!isRecord(candidate)) {
      const feedback = isRecord(data.promptFeedback) ? data.promptFeedback.blockReason : undefined;
      if (typeof feedback === 'string') {
        throw new ToolRuntimeError(`Gemini blocked the prompt (${feedback}); rephrase it.`, {
          provider: this.provider,
          retryable: false,
        });
      }
      throw malformedResponse(this.provider, 'candidates[0]');
    }
    const parts =
      isRecord(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
    const texts: string[] = [];
    const toolCalls: LlmToolCall[] = [];
    for (const part of parts) {
      if (!isRecord(part)) continue;
      if (typeof part.text === 'string' && part.thought !== true) texts.push(part.text);
      const call = part.functionCall;
      if (isRecord(call) && typeof call.name === 'string') {
        const providerData: Record<string, unknown> = {};
        if (typeof part.thoughtSignature === 'string') providerData.thoughtSignature = part.thoughtSignature;
        if (typeof call.id === 'string') providerData.id = call.id;
        toolCalls.push({
          id: typeof call.id === 'string' ? call.id : `gemini_${randomUUID()}`,
          name: call.name,
          arguments: isRecord(call.args) ? call.args : {},
          ...(Object.keys(providerData).length ? { providerData } : {}),
        });
      }
    }
    const usage = readTokenUsage(data.usageMetadata, 'promptTokenCount', 'candidatesTokenCount');
    const text = texts.join('');
    return {
      text: text === '' ? null : text,
      toolCalls,
      ...(usage ? { usage } : {}),
      ...(typeof candidate.finishReason === 'string' ? { finishReason: candidate.finishReason } : {}),
    };
  }
}

function toContents(messages: readonly LlmMessage[]): Record<string, unknown>[] {
  const contents: Record<string, unknown>[] = [];
  const providerIds = new Map<string, string | undefined>();
  let responses: Record<string, unknown>[] | undefined;
  for (const message of messages) {
    if (message.role === 'tool') {
      const functionResponse: Record<string, unknown> = {
        name: message.name,
        response: toResultObject(message.content),
      };
      const id = providerIds.get(message.toolCallId);
      if (id !== undefined) functionResponse.id = id;
      if (responses) responses.push({ functionResponse });
      else {
        responses = [{ functionResponse }];
        contents.push({ role: 'user', parts: responses });
      }
      continue;
    }
    responses = undefined;
    if (message.role === 'system') continue;
    if (message.role === 'user') contents.push({ role: 'user', parts: [{ text: message.content }] });
    else {
      const parts: Record<string, unknown>[] = [];
      if (message.content) parts.push({ text: message.content });
      for (const call of message.toolCalls ?? []) {
        const providerId = typeof call.providerData?.id === 'string' ? call.providerData.id : undefined;
        providerIds.set(call.id, providerId);
        const functionCall: Record<string, unknown> = {
          name: call.name,
          args: toArgumentsObject(call.arguments),
        };
        if (providerId !== undefined) functionCall.id = providerId;
        const part: Record<string, unknown> = { functionCall };
        if (typeof call.providerData?.thoughtSignature === 'string')
          part.thoughtSignature = call.providerData.thoughtSignature;
        parts.push(part);
      }
      if (parts.length > 0) contents.push({ role: 'model', parts });
    }
  }
  return contents;
}
