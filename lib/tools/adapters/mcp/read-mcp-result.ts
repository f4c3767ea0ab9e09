import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolRuntimeError } from '../../../errors/tool-runtime-error';

/** What {@link readMcpResult} needs to know. */
export interface ReadMcpResultOptions {
  /** The tool, for messages. */
  toolName: string;
  /** The server, for messages. */
  serverName: string;
  /** Longest text kept; longer text is cut and marked. */
  maxResultChars: number;
}

/**
 * Turns a `tools/call` result into the tool's value: `structuredContent` when present, else the first text
 * item, else null. Text longer than `maxResultChars` is cut with a marker saying how much was dropped.
 *
 * @throws ToolRuntimeError carrying the server's text when the result is an error (`isError`), or when
 * the structured content is larger than `maxResultChars` once serialized.
 */
export function readMcpResult(result: CallToolResult, options: ReadMcpResultOptions): unknown {
  const content = Array.isArray(result.content) ? result.content : [];
  if (result.isError === true) {
    const texts = content
      .filter(
        (item): item is { type: 'text'; text: string } =>
          item?.type === 'text' && typeof item.text === 'string',
      )
      .map((item) => item.text);
    const message = texts.length > 0 ? capText(texts.join('\n'), 4_000) : 'no error text was given';
    throw new ToolRuntimeError(
      `MCP tool '${options.toolName}' on server '${options.serverName}' returned an error: ${message}`,
      {
        toolName: options.toolName,
        provider: options.serverName,
      },
    );
  }
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    const size = JSON.stringify(result.structuredContent).length;
    if (size > options.maxResultChars) {
      throw new ToolRuntimeError(
        `MCP tool '${options.toolName}' on server '${options.serverName}' returned ${size} characters of structured content (at most ${options.maxResultChars}); raise maxResultChars to accept it.`,
        { toolName: options.toolName, provider: options.serverName },
      );
    }
    return result.structuredContent;
  }
  const first = content.find((item) => item?.type === 'text');
  if (!first || typeof (first as { text?: unknown }).text !== 'string') return null;
  return capText((first as { text: string }).text, options.maxResultChars);
}

function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [cut: ${text.length - max} more characters]`;
}
