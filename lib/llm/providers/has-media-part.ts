import type { ToolResult } from '../../tools/tool-result';

/** Whether a rich result has a part other than text (image, audio, resource or resource link). */
export function hasMediaPart(result: ToolResult): boolean {
  return result.content.some((part) => part.type !== 'text');
}
