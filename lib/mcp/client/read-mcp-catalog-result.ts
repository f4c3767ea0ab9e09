import * as z from 'zod';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { toContentPart, toResourcePart } from '../../tools/tool-content-part';
import { isPlainRecord } from '../../tools/validation/copy-json-value';
import type {
  MCPPromptMessage,
  MCPPromptResult,
  MCPResourceContents,
  MCPResourceReading,
} from './mcp-catalog-definition';
import { isWithinResourceUri } from '../../resources/is-within-resource-uri';
import { quoteKey } from './mcp-definition-kind';
import { McpResultBudget } from './mcp-result-budget';

// Not folded with read-mcp-result.ts (see there); the budgets are McpResultBudget, shared.

/** The envelope of a `resources/read` answer; each item is checked on its own. */
export const LENIENT_READ_RESOURCE_RESULT = z.looseObject({ contents: z.array(z.unknown()) });
/** The envelope of a `prompts/get` answer; each message is checked on its own. */
export const LENIENT_GET_PROMPT_RESULT = z.looseObject({
  description: z.unknown().optional(),
  messages: z.array(z.unknown()),
});

/** What the readers below need to know. */
export interface ReadMcpCatalogResultOptions {
  /** What was asked for, for messages: `MCP resource "file:///a" on server 'docs'`. */
  readonly subject: string;
  readonly serverName: string;
  /** Text budget of the whole answer; longer text is cut with a marker. */
  readonly maxResultChars: number;
  /** Most decoded bytes of binary data (blobs, images, audio) in the whole answer. */
  readonly maxBinaryBytes: number;
}

/**
 * Reads a `resources/read` answer: each item a URI with exactly one of `text` or base64 `blob` (and a
 * well-formed MIME type when given), only those fields kept. Each item's URI must be the one read or a
 * sub-resource under it (see {@link isWithinResourceUri}): a server cannot pass contents off as another
 * resource's. Text beyond `maxResultChars` in all is cut with a marker (and `truncated` set).
 *
 * @throws ToolRuntimeError when an item is malformed or labelled with a URI outside the one read, or the
 * blobs decode to more than `maxBinaryBytes`.
 */
export function readMcpResourceContents(
  uri: string,
  result: z.output<typeof LENIENT_READ_RESOURCE_RESULT>,
  options: ReadMcpCatalogResultOptions,
): MCPResourceReading {
  const budget = budgetOf(options);
  const contents = result.contents.map((item, index): MCPResourceContents => {
    const where = `contents[${index}]`;
    if (!isPlainRecord(item)) throw budget.failure(`sent ${where} that is not an object`);
    const part = budget.checkPart(
      () => toResourcePart(item as unknown as Parameters<typeof toResourcePart>[0]),
      where,
    );
    if (part.type !== 'resource') throw budget.failure(`sent a malformed ${where}`);
    const resource = part.resource;
    if (!isWithinResourceUri(uri, resource.uri)) {
      throw budget.failure(
        `sent ${where} labelled ${quoteKey(resource.uri)}, which is neither that URI nor a sub-resource under it; the answer was refused`,
      );
    }
    if ('text' in resource) return Object.freeze({ ...resource, text: budget.cut(resource.text) });
    budget.countBinary(resource.blob);
    return resource;
  });
  return Object.freeze({ uri, contents: Object.freeze(contents), truncated: budget.truncated });
}

/**
 * Reads a `prompts/get` answer: each message a `user` or `assistant` role with one content part (text, image,
 * audio, embedded resource or resource link, checked as a tool's rich result is). Text beyond
 * `maxResultChars` in all is cut with a marker (and `truncated` set).
 *
 * @throws ToolRuntimeError when a message is malformed or the binary parts decode to more than
 * `maxBinaryBytes`.
 */
export function readMcpPromptMessages(
  name: string,
  result: z.output<typeof LENIENT_GET_PROMPT_RESULT>,
  options: ReadMcpCatalogResultOptions,
): MCPPromptResult {
  const budget = budgetOf(options);
  const description = typeof result.description === 'string' ? budget.cut(result.description) : undefined;
  const messages = result.messages.map((message, index): MCPPromptMessage => {
    const where = `messages[${index}]`;
    if (!isPlainRecord(message) || (message.role !== 'user' && message.role !== 'assistant'))
      throw budget.failure(`sent ${where} without the role 'user' or 'assistant'`);
    if (!isPlainRecord(message.content)) throw budget.failure(`sent ${where} without a content object`);
    const part = budget.checkPart(() => toContentPart(message.content, `${where}.content`), where);
    return Object.freeze({ role: message.role, content: budget.keep(part) });
  });
  return Object.freeze({
    name,
    ...(description !== undefined ? { description } : {}),
    messages: Object.freeze(messages),
    truncated: budget.truncated,
  });
}

/** The budgets of one answer; every failure names what was asked for. */
function budgetOf(options: ReadMcpCatalogResultOptions): McpResultBudget {
  return new McpResultBudget({
    maxResultChars: options.maxResultChars,
    maxBinaryBytes: options.maxBinaryBytes,
    fail: (what, cause) =>
      new ToolRuntimeError(`${options.subject} ${what}.`, {
        provider: options.serverName,
        ...(cause !== undefined ? { cause } : {}),
      }),
    tooMuchBinary: (max) =>
      `sent more than ${max} bytes of binary data (blobs, images, audio); raise maxMessageBytes to accept it`,
  });
}
