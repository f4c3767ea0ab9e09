import type { LlmMessage, LlmRequest, LlmResponse, LlmToolCall } from '../llm';
import { toOpenAITools } from '../to-openai-tools';
import type { OpenAIChatTool } from '../to-openai-tools';
import { isRecord, malformedResponse, toArgumentsString } from './provider-message-parts';
import { readTokenUsage } from './read-token-usage';

/** A Chat Completions message as Protolink sends it (a subset of the `openai` client's message params). */
export type OpenAIChatMessageParam =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** The body of a non-streaming `POST /chat/completions` as Protolink builds it. */
export interface OpenAIChatCompletionBody {
  model: string;
  messages: OpenAIChatMessageParam[];
  tools?: OpenAIChatTool[];
  temperature?: number;
  max_completion_tokens?: number;
}

/** The settings that shape a Chat Completions body. */
export interface OpenAIChatBodySettings {
  /** Model id. */
  model: string;
  /** Declare tools in strict mode. */
  strict: boolean;
  /** Sampling temperature. */
  temperature?: number;
  /** `max_completion_tokens`. */
  maxTokens?: number;
}

/**
 * Builds the Chat Completions body of one model call: the conversation, the tools (when there are any) and
 * the sampling settings.
 *
 * @throws ToolDefinitionError when a tool cannot be declared.
 */
export function buildOpenAIChatBody(
  request: LlmRequest,
  settings: OpenAIChatBodySettings,
): OpenAIChatCompletionBody {
  const body: OpenAIChatCompletionBody = {
    model: settings.model,
    messages: request.messages.map(toChatMessage),
  };
  if (request.tools.length > 0)
    body.tools = toOpenAITools(request.tools, { strict: settings.strict, api: 'chat' });
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.maxTokens !== undefined) body.max_completion_tokens = settings.maxTokens;
  return body;
}

/**
 * Reads a chat completion (the JSON body, or the `openai` client's result) into an {@link LlmResponse}.
 *
 * @throws ToolRuntimeError naming the provider when the completion has no `choices[0].message`.
 */
export function readOpenAIChatCompletion(provider: string, data: unknown): LlmResponse {
  const choice = isRecord(data) && Array.isArray(data.choices) ? (data.choices[0] as unknown) : undefined;
  if (!isRecord(data) || !isRecord(choice) || !isRecord(choice.message))
    throw malformedResponse(provider, 'choices[0].message');
  const message = choice.message;
  const toolCalls: LlmToolCall[] = [];
  for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    if (!isRecord(call) || !isRecord(call.function) || typeof call.function.name !== 'string') continue;
    const args = call.function.arguments;
    toolCalls.push({
      id: typeof call.id === 'string' ? call.id : `call_${toolCalls.length}`,
      name: call.function.name,
      arguments: typeof args === 'string' || isRecord(args) ? args : '{}',
    });
  }
  const usage = readTokenUsage(data.usage, 'prompt_tokens', 'completion_tokens');
  return {
    text: typeof message.content === 'string' ? message.content : null,
    toolCalls,
    ...(usage ? { usage } : {}),
    ...(typeof choice.finish_reason === 'string' ? { finishReason: choice.finish_reason } : {}),
  };
}

function toChatMessage(message: LlmMessage): OpenAIChatMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant': {
      const hasCalls = Boolean(message.toolCalls?.length);
      // Chat Completions accepts a null content only next to tool calls.
      const result: OpenAIChatMessageParam = {
        role: 'assistant',
        content: message.content ?? (hasCalls ? null : ''),
      };
      if (message.toolCalls?.length) {
        result.tool_calls = message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: toArgumentsString(call.arguments) },
        }));
      }
      return result;
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}
