import type { ToolResult } from '../../tools/tool-result';
import { describeToolContentPart } from '../to-tool-result-text';

/** An item of a Responses `function_call_output` array as Protolink sends it. */
export type OpenAIFunctionCallOutputItem =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string }
  | { type: 'input_file'; filename: string; file_data: string };

/**
 * Returns the `output` of an OpenAI Responses `function_call_output` item for a rich result: an array of
 * `input_text`, `input_image` (a base64 data URL) and `input_file` (PDF resources) items, with text
 * placeholders for what the API cannot take (audio, other blobs, resource links). Its structured content
 * goes first as JSON text when it has no text part.
 */
export function toOpenAIFunctionCallOutput(result: ToolResult): OpenAIFunctionCallOutputItem[] {
  const items: OpenAIFunctionCallOutputItem[] = [];
  const hasText = result.content.some((part) => part.type === 'text');
  if (!hasText && result.structuredContent !== undefined)
    items.push({ type: 'input_text', text: JSON.stringify(result.structuredContent) });
  for (const part of result.content) {
    if (part.type === 'image') {
      items.push({ type: 'input_image', image_url: `data:${part.mimeType};base64,${part.data}` });
    } else if (
      part.type === 'resource' &&
      'blob' in part.resource &&
      part.resource.mimeType?.toLowerCase() === 'application/pdf'
    ) {
      items.push({
        type: 'input_file',
        filename: toFileName(part.resource.uri),
        file_data: `data:application/pdf;base64,${part.resource.blob}`,
      });
    } else {
      items.push({ type: 'input_text', text: describeToolContentPart(part) });
    }
  }
  return items;
}

function toFileName(uri: string): string {
  const last =
    uri
      .split(/[/\\]/)
      .filter((segment) => segment !== '')
      .pop() ?? '';
  const name = last.replace(/^[A-Za-z][A-Za-z0-9+.-]*:/, '');
  return name === '' ? 'document.pdf' : name;
}
