import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { toContentPart } from '../../tools/tool-content-part';
import { ToolResult } from '../../tools/tool-result';
import { capText, McpResultBudget } from './mcp-result-budget';

// Not folded with read-mcp-catalog-result.ts: a tool's result (an error flag, structured content, a wrapped
// value, text or rich parts) is another thing than a resource's contents or a prompt's messages. What the
// readers share, the budgets of one answer and the checking of its parts, is McpResultBudget.

/** What {@link readMcpResult} needs to know. */
export interface ReadMcpResultOptions {
  /** The tool, for messages. */
  toolName: string;
  /** The server, for messages. */
  serverName: string;
  /** Longest text kept; longer text is cut and marked. */
  maxResultChars: number;
  /** Most decoded bytes of binary parts (images, audio, blobs) in one result (default 16 MiB). */
  maxBinaryBytes?: number;
}

const DEFAULT_MAX_BINARY_BYTES = 16 * 1024 * 1024;

/**
 * Turns a `tools/call` result into the tool's value. A result with a non-text part (image, audio, embedded
 * resource, resource link) becomes a {@link ToolResult} with the same parts and its `structuredContent`;
 * otherwise the value is `structuredContent` when present (a number, boolean or array sent wrapped as
 * `{ result: value }` with its own JSON as text comes back unwrapped), else the first text item, else null. Text longer
 * than `maxResultChars` is cut with a marker saying how much was dropped (in a ToolResult, the text parts
 * and text resources share that budget).
 *
 * @throws ToolRuntimeError carrying the server's text when the result is an error (`isError`), when the
 * structured content is larger than `maxResultChars` once serialized, when the binary parts decode to more
 * than `maxBinaryBytes`, or when a part is malformed.
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
    throw failure(options, `returned an error: ${message}`);
  }
  const structured =
    result.structuredContent !== undefined && result.structuredContent !== null
      ? result.structuredContent
      : undefined;
  if (structured !== undefined) {
    const size = JSON.stringify(structured).length;
    if (size > options.maxResultChars) {
      throw failure(
        options,
        `returned ${size} characters of structured content (at most ${options.maxResultChars}); raise maxResultChars to accept it.`,
      );
    }
  }
  if (content.some((item) => item?.type !== 'text')) return readRichResult(content, structured, options);
  if (structured !== undefined) return isWrappedResult(structured, content) ? structured.result : structured;
  const first = content.find((item) => item?.type === 'text');
  if (!first || typeof (first as { text?: unknown }).text !== 'string') return null;
  return capText((first as { text: string }).text, options.maxResultChars);
}

/**
 * Whether the structured content is a number, boolean or array sent as `{ result: value }` (MCP wants an
 * object there; Protolink's and FastMCP's servers wrap such values so), told by the one text part being
 * that value's own JSON; the caller then gets the value back, not the wrapper.
 */
function isWrappedResult(
  structured: Record<string, unknown>,
  content: readonly unknown[],
): structured is { result: unknown } {
  const keys = Object.keys(structured);
  if (keys.length !== 1 || keys[0] !== 'result') return false;
  const value = structured.result;
  if (typeof value !== 'number' && typeof value !== 'boolean' && !Array.isArray(value)) return false;
  if (content.length !== 1) return false;
  const text = (content[0] as { text?: unknown }).text;
  if (typeof text !== 'string') return false;
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

function readRichResult(
  content: readonly unknown[],
  structured: Record<string, unknown> | undefined,
  options: ReadMcpResultOptions,
): ToolResult {
  const budget = new McpResultBudget({
    maxResultChars: options.maxResultChars,
    maxBinaryBytes: options.maxBinaryBytes ?? DEFAULT_MAX_BINARY_BYTES,
    fail: (what, cause) => failure(options, what, cause),
    tooMuchBinary: (max) =>
      `returned more than ${max} bytes of binary content (images, audio, blobs); raise maxMessageBytes to accept it.`,
  });
  // Keep only the fields Protolink models (MCP's `annotations` and `_meta` are dropped).
  const parts = content.map((item, index) =>
    budget.keep(budget.checkPart(() => toContentPart(item, `content[${index}]`), 'content part')),
  );
  const rich = ToolResult.of(...parts);
  return structured === undefined ? rich : rich.withStructuredContent(structured);
}

function failure(options: ReadMcpResultOptions, what: string, cause?: unknown): ToolRuntimeError {
  return new ToolRuntimeError(`MCP tool '${options.toolName}' on server '${options.serverName}' ${what}`, {
    toolName: options.toolName,
    provider: options.serverName,
    ...(cause !== undefined ? { cause } : {}),
  });
}
