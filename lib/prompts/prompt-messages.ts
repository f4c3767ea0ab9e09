import { ToolDefinitionError } from '../errors/tool-definition-error';
import { toContentPart } from '../tools/tool-content-part';
import type { ToolContentPart } from '../tools/tool-content-part';
import { ToolResult } from '../tools/tool-result';

/** One message of a prompt (MCP's `PromptMessage`). */
export interface PromptMessage {
  readonly role: 'user' | 'assistant';
  readonly content: ToolContentPart;
}

/** What `agent.getPrompt(name, args)` returns (MCP's `GetPromptResult`). */
export interface GetPromptResult {
  /** The prompt's description, when it has one. */
  readonly description?: string;
  readonly messages: readonly PromptMessage[];
}

/**
 * Turns what a `@Prompt` method returned into messages: a string is one user text message; a `ToolResult`
 * one user message per part; `{ role, content }` one message whose content is a string, a content part or a
 * one-part `ToolResult`; a list, several; `{ messages: [...] }`, those.
 *
 * @throws ToolDefinitionError when the method returned something else or a message is malformed.
 */
export function toPromptMessages(value: unknown, where: string): PromptMessage[] {
  if (typeof value === 'string') return [message('user', toContentPart(value, where))];
  if (ToolResult.isToolResult(value)) return value.content.map((part) => message('user', part));
  if (Array.isArray(value)) return value.flatMap((item) => toPromptMessages(item, where));
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (Array.isArray(record.messages)) return toPromptMessages(record.messages, where);
    if (record.role === 'user' || record.role === 'assistant') {
      const content = record.content;
      if (ToolResult.isToolResult(content))
        return content.content.map((part) => message(record.role as PromptMessage['role'], part));
      return [message(record.role, readPart(content, where))];
    }
    if (typeof record.type === 'string') return [message('user', readPart(record, where))];
  }
  throw new ToolDefinitionError(
    `${where} returned ${value === null ? 'null' : typeof value}; a prompt method returns a string, { role: 'user' | 'assistant', content }, a list of them, or a ToolResult.`,
  );
}

function readPart(content: unknown, where: string): ToolContentPart {
  try {
    return toContentPart(content, `${where} message content`);
  } catch (error) {
    throw new ToolDefinitionError((error as Error).message, { cause: error });
  }
}

function message(role: PromptMessage['role'], content: ToolContentPart): PromptMessage {
  return Object.freeze({ role, content });
}
