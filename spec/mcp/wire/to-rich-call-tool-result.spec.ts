import { toRichCallToolResult } from '../../../lib/mcp/wire/to-rich-call-tool-result';
import { ToolResult } from '../../../lib/tools/tool-result';

describe('toRichCallToolResult', () => {
  it('sends the parts as they are, in order, with the structured content', () => {
    const result = ToolResult.of(
      'a',
      ToolResult.image('AAAA', 'image/png'),
      ToolResult.audio('AA==', 'audio/mpeg'),
      ToolResult.resource({ uri: 'memo://1', text: 'note' }),
      ToolResult.resource({ uri: 'memo://2', mimeType: 'application/pdf', blob: 'AAA=' }),
      ToolResult.resourceLink({ uri: 'memo://3', name: 'three', description: 'the third' }),
    ).withStructuredContent({ parts: 6 });
    expect(toRichCallToolResult(result)).toEqual({
      content: [
        { type: 'text', text: 'a' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'audio', data: 'AA==', mimeType: 'audio/mpeg' },
        { type: 'resource', resource: { uri: 'memo://1', text: 'note' } },
        { type: 'resource', resource: { uri: 'memo://2', mimeType: 'application/pdf', blob: 'AAA=' } },
        { type: 'resource_link', uri: 'memo://3', name: 'three', description: 'the third' },
      ],
      structuredContent: { parts: 6 },
    });
  });

  it('leaves structuredContent out when there is none, and returns mutable copies', () => {
    const result = ToolResult.text('only');
    const sent = toRichCallToolResult(result);
    expect(sent).toEqual({ content: [{ type: 'text', text: 'only' }] });
    expect('structuredContent' in sent).toBe(false);
    sent.content.push({ type: 'text', text: 'more' });
    expect(result.content).toHaveLength(1);
    expect(toRichCallToolResult(ToolResult.of())).toEqual({ content: [] });
  });
});
