import { randomUUID } from '../../runtime/random-uuid';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import type { LlmMessage, LlmResponse, LlmToolCall } from '../llm';
import { isRecord, malformedResponse, toArgumentsObject, toResultObject } from './provider-message-parts';
import { readTokenUsage } from './read-token-usage';

/** A part of a Gemini turn as Protolink sends it (a subset of `@google/genai`'s `Part`). */
export interface GeminiPart {
  text?: string;
  functionCall?: { id?: string; name: string; args: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
  thoughtSignature?: string;
}

/** A Gemini turn as Protolink sends it (a subset of `@google/genai`'s `Content`). */
export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/**
 * Turns the conversation into Gemini contents: function responses of one turn go back in one user turn,
 * each call's `thoughtSignature` and provider id travel back with it, system messages are left out (they
 * become the system instruction).
 */
export function toGeminiContents(messages: readonly LlmMessage[]): GeminiContent[] {
  const contents: GeminiContent[] = [];
  const providerIds = new Map<string, string | undefined>();
  let responses: GeminiPart[] | undefined;
  for (const message of messages) {
    if (message.role === 'tool') {
      const functionResponse: NonNullable<GeminiPart['functionResponse']> = {
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
      const parts: GeminiPart[] = [];
      if (message.content) parts.push({ text: message.content });
      for (const call of message.toolCalls ?? []) {
        const providerId = typeof call.providerData?.id === 'string' ? call.providerData.id : undefined;
        providerIds.set(call.id, providerId);
        const functionCall: NonNullable<GeminiPart['functionCall']> = {
          name: call.name,
          args: toArgumentsObject(call.arguments),
        };
        if (providerId !== undefined) functionCall.id = providerId;
        const part: GeminiPart = { functionCall };
        if (typeof call.providerData?.thoughtSignature === 'string')
          part.thoughtSignature = call.providerData.thoughtSignature;
        parts.push(part);
      }
      if (parts.length > 0) contents.push({ role: 'model', parts });
    }
  }
  return contents;
}

/**
 * Reads a generateContent result (the JSON body, or `@google/genai`'s response) into an {@link LlmResponse}.
 *
 * @throws ToolRuntimeError naming the provider when the prompt was blocked or there is no candidate.
 */
export function readGeminiResponse(provider: string, data: unknown): LlmResponse {
  const candidate =
    isRecord(data) && Array.isArray(data.candidates) ? (data.candidates[0] as unknown) : undefined;
  if (!isRecord(data) || !isRecord(candidate)) {
    const feedback =
      isRecord(data) && isRecord(data.promptFeedback) ? data.promptFeedback.blockReason : undefined;
    if (typeof feedback === 'string') {
      throw new ToolRuntimeError(`Gemini blocked the prompt (${feedback}); rephrase it.`, {
        provider,
        retryable: false,
      });
    }
    throw malformedResponse(provider, 'candidates[0]');
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
