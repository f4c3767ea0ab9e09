import type { LlmMessage, LlmRequest, LlmResponse, LlmToolCall } from '../llm';
import { toAnthropicTools } from '../to-anthropic-tools';
import type { AnthropicTool } from '../to-anthropic-tools';
import { isRecord, joinSystemText, malformedResponse, toArgumentsObject } from './provider-message-parts';
import { readTokenUsage } from './read-token-usage';
import { hasMediaPart } from './has-media-part';
import { toAnthropicToolResultContent } from './to-anthropic-tool-result-content';
import type { AnthropicToolResultContentBlock } from './to-anthropic-tool-result-content';

/** A content block Protolink sends to the Messages API (a subset of `@anthropic-ai/sdk`'s block params). */
export type AnthropicContentBlockParam =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | {
      type: 'tool_result';
      tool_use_id: string;
      content: string | AnthropicToolResultContentBlock[];
      is_error?: boolean;
    };

/** A Messages API turn as Protolink sends it. */
export interface AnthropicMessageParam {
  role: 'user' | 'assistant';
  content: string | AnthropicContentBlockParam[];
}

/** The body of a non-streaming `POST /v1/messages` as Protolink builds it. */
export interface AnthropicMessagesBody {
  model: string;
  max_tokens: number;
  messages: AnthropicMessageParam[];
  system?: string;
  tools?: AnthropicTool[];
  temperature?: number;
}

/** The settings that shape a Messages body. */
export interface AnthropicBodySettings {
  /** Model id. */
  model: string;
  /** `max_tokens` (required by the API). */
  maxTokens: number;
  /** Sampling temperature. */
  temperature?: number;
}

/**
 * Builds the Messages body of one model call; tool results of one turn go back in one user message and
 * system messages become `system`.
 *
 * @throws ToolDefinitionError when a tool cannot be declared.
 */
export function buildAnthropicMessagesBody(
  request: LlmRequest,
  settings: AnthropicBodySettings,
): AnthropicMessagesBody {
  const body: AnthropicMessagesBody = {
    model: settings.model,
    max_tokens: settings.maxTokens,
    messages: toAnthropicMessages(request.messages),
  };
  const system = joinSystemText(request.messages);
  if (system !== undefined) body.system = system;
  if (request.tools.length > 0) body.tools = toAnthropicTools(request.tools);
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  return body;
}

/**
 * Reads a Messages API result (the JSON body, or the `@anthropic-ai/sdk` client's result) into an
 * {@link LlmResponse}.
 *
 * @throws ToolRuntimeError naming the provider when the result has no `content` array.
 */
export function readAnthropicMessage(provider: string, data: unknown): LlmResponse {
  if (!isRecord(data) || !Array.isArray(data.content)) throw malformedResponse(provider, 'a content array');
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

function toAnthropicMessages(messages: readonly LlmMessage[]): AnthropicMessageParam[] {
  const result: AnthropicMessageParam[] = [];
  let results: AnthropicContentBlockParam[] | undefined;
  for (const message of messages) {
    if (message.role === 'tool') {
      const block: AnthropicContentBlockParam = {
        type: 'tool_result',
        tool_use_id: message.toolCallId,
        content:
          message.result && hasMediaPart(message.result)
            ? toAnthropicToolResultContent(message.result)
            : message.content,
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
      const blocks: AnthropicContentBlockParam[] = [];
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
