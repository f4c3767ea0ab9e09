import { countBase64Bytes } from '../tools/tool-content-part';
import type { ToolContentPart } from '../tools/tool-content-part';
import { ToolResult } from '../tools/tool-result';

/**
 * Returns the text form of a content part for a model that cannot take it as media: a text part's text,
 * a text resource's text under its URI, and a bracketed placeholder for binary data and links, e.g.
 * `[image image/png, 68 bytes base64 omitted]`.
 */
export function describeToolContentPart(part: ToolContentPart): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'image':
    case 'audio':
      return `[${part.type} ${part.mimeType}, ${countBase64Bytes(part.data)} bytes base64 omitted]`;
    case 'resource': {
      const { resource } = part;
      const label = `${resource.uri}${resource.mimeType ? ` ${resource.mimeType}` : ''}`;
      if ('text' in resource) return `[resource ${label}]\n${resource.text}`;
      return `[resource ${label}, ${countBase64Bytes(resource.blob)} bytes base64 omitted]`;
    }
    case 'resource_link': {
      const details = [part.mimeType, part.size !== undefined ? `${part.size} bytes` : undefined]
        .filter((detail) => detail !== undefined)
        .join(', ');
      const title = part.title ?? part.name;
      return `[resource link ${title} <${part.uri}>${details ? ` (${details})` : ''}${part.description ? `: ${part.description}` : ''}]`;
    }
    default:
      return `[${String((part as { type?: unknown }).type)} content omitted]`;
  }
}

/**
 * Returns a rich result as one text for a model tool message: its parts' text forms joined by newlines
 * (see {@link describeToolContentPart}), or its `structuredContent` as JSON when it has no text part.
 */
export function toToolResultText(result: ToolResult): string {
  const hasText = result.content.some((part) => part.type === 'text');
  const texts = result.content.map(describeToolContentPart);
  if (!hasText && result.structuredContent !== undefined)
    texts.unshift(JSON.stringify(result.structuredContent));
  return texts.join('\n');
}

/**
 * Returns a copy of a rich result whose text (text parts and text resources, in order) fits in `maxChars`
 * characters; the part where the budget runs out is cut with a marker and later text is dropped the same way.
 * Binary parts are kept as they are (their size is bounded where they are read, e.g. by `MCPToolAdapter`).
 */
export function capToolResultText(result: ToolResult, maxChars: number): ToolResult {
  let remaining = maxChars;
  const cut = (text: string): string => {
    if (text.length <= remaining) {
      remaining -= text.length;
      return text;
    }
    const kept = text.slice(0, remaining);
    remaining = 0;
    return `${kept}… [truncated: ${text.length - kept.length} more characters]`;
  };
  let changed = false;
  const parts = result.content.map((part): ToolContentPart => {
    if (part.type === 'text') {
      const text = cut(part.text);
      if (text === part.text) return part;
      changed = true;
      return { type: 'text', text };
    }
    if (part.type === 'resource' && 'text' in part.resource) {
      const text = cut(part.resource.text);
      if (text === part.resource.text) return part;
      changed = true;
      return { type: 'resource', resource: { ...part.resource, text } };
    }
    return part;
  });
  if (!changed) return result;
  const copy = ToolResult.of(...parts);
  return result.structuredContent === undefined
    ? copy
    : copy.withStructuredContent(result.structuredContent as Record<string, unknown>);
}
