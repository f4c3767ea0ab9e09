import type { ToolResult } from '../../tools/tool-result';
import { describeToolContentPart } from '../to-tool-result-text';

/** A block of an Anthropic `tool_result`'s content as Protolink sends it (text, base64 image, base64 PDF). */
export type AnthropicToolResultContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: AnthropicImageType; data: string } }
  | {
      type: 'document';
      source: { type: 'base64'; media_type: 'application/pdf'; data: string };
      title?: string;
    };

/** Image types the Messages API accepts in a base64 image block. */
export type AnthropicImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

const ANTHROPIC_IMAGE_TYPES: ReadonlySet<string> = new Set<AnthropicImageType>([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
]);

/**
 * Returns the content of an Anthropic `tool_result` block for a rich result: text blocks, base64 image
 * blocks (JPEG, PNG, GIF, WebP), document blocks for PDF resources, and text placeholders for what the
 * Messages API cannot take (audio, other images and blobs, resource links). Its structured content goes
 * first as JSON text when it has no text part.
 */
export function toAnthropicToolResultContent(result: ToolResult): AnthropicToolResultContentBlock[] {
  const blocks: AnthropicToolResultContentBlock[] = [];
  const hasText = result.content.some((part) => part.type === 'text');
  if (!hasText && result.structuredContent !== undefined)
    blocks.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  for (const part of result.content) {
    const imageType = part.type === 'image' ? part.mimeType.toLowerCase() : '';
    if (part.type === 'image' && ANTHROPIC_IMAGE_TYPES.has(imageType)) {
      blocks.push({
        type: 'image',
        source: { type: 'base64', media_type: imageType as AnthropicImageType, data: part.data },
      });
    } else if (
      part.type === 'resource' &&
      'blob' in part.resource &&
      part.resource.mimeType?.toLowerCase() === 'application/pdf'
    ) {
      blocks.push({
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: part.resource.blob },
        title: part.resource.uri,
      });
    } else {
      const text = describeToolContentPart(part);
      // The API rejects empty text blocks.
      if (text !== '') blocks.push({ type: 'text', text });
    }
  }
  return blocks;
}
