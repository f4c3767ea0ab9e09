import type { LlmMessage, LlmRequest, LlmResponse, LlmToolCall } from '../llm';
import { toOpenAITools } from '../to-openai-tools';
import type { OpenAIResponsesTool } from '../to-openai-tools';
import type { OpenAIChatBodySettings } from './openai-chat-format';
import { isRecord, joinSystemText, malformedResponse, toArgumentsString } from './provider-message-parts';
import { readTokenUsage } from './read-token-usage';
import { hasMediaPart } from './has-media-part';
import { toOpenAIFunctionCallOutput } from './to-openai-function-call-output';
import type { OpenAIFunctionCallOutputItem } from './to-openai-function-call-output';

/** A Responses API input item as Protolink sends it (a subset of the `openai` client's input items). */
export type OpenAIResponsesInputItem =
  | { role: 'user' | 'assistant'; content: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string | OpenAIFunctionCallOutputItem[] };

/** The body of a non-streaming `POST /responses` as Protolink builds it (stateless: `store: false`). */
export interface OpenAIResponsesBody {
  model: string;
  input: OpenAIResponsesInputItem[];
  store: boolean;
  instructions?: string;
  tools?: OpenAIResponsesTool[];
  temperature?: number;
  max_output_tokens?: number;
}

/**
 * Builds the Responses body of one model call: the whole conversation as input items, system messages as
 * `instructions`, the tools and the sampling settings.
 *
 * @throws ToolDefinitionError when a tool cannot be declared.
 */
export function buildOpenAIResponsesBody(
  request: LlmRequest,
  settings: OpenAIChatBodySettings,
): OpenAIResponsesBody {
  const body: OpenAIResponsesBody = {
    model: settings.model,
    input: request.messages.flatMap(toInputItems),
    store: false,
  };
  const instructions = joinSystemText(request.messages);
  if (instructions !== undefined) body.instructions = instructions;
  if (request.tools.length > 0)
    body.tools = toOpenAITools(request.tools, { strict: settings.strict, api: 'responses' });
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.maxTokens !== undefined) body.max_output_tokens = settings.maxTokens;
  return body;
}

/**
 * Reads a Responses API result (the JSON body, or the `openai` client's result) into an {@link LlmResponse}.
 *
 * @throws ToolRuntimeError naming the provider when the result has no `output` array.
 */
export function readOpenAIResponse(provider: string, data: unknown): LlmResponse {
  if (!isRecord(data) || !Array.isArray(data.output)) throw malformedResponse(provider, 'an output array');
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

function toInputItems(message: LlmMessage): OpenAIResponsesInputItem[] {
  switch (message.role) {
    case 'system':
      return [];
    case 'user':
      return [{ role: 'user', content: message.content }];
    case 'assistant': {
      const items: OpenAIResponsesInputItem[] = [];
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
      return [
        {
          type: 'function_call_output',
          call_id: message.toolCallId,
          output:
            message.result && hasMediaPart(message.result)
              ? toOpenAIFunctionCallOutput(message.result)
              : message.content,
        },
      ];
  }
}
