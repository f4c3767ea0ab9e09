import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../../tools/tool-result';

/**
 * Returns the MCP result of a tool's rich result: its content parts as they are (fresh copies, in order)
 * and its `structuredContent` when it has one.
 */
export function toRichCallToolResult(result: ToolResult): CallToolResult {
  const json = result.toJSON();
  const callResult: CallToolResult = { content: json.content as CallToolResult['content'] };
  if (json.structuredContent !== undefined) callResult.structuredContent = json.structuredContent;
  return callResult;
}
