import {
  capToolResultText,
  describeToolContentPart,
  toToolResultText,
} from '../../lib/llm/to-tool-result-text';
import { ToolResult } from '../../lib/tools/tool-result';

describe('describeToolContentPart', () => {
  it('keeps text and text resources, and describes binary parts and links', () => {
    expect(describeToolContentPart({ type: 'text', text: 'hi' })).toBe('hi');
    expect(describeToolContentPart({ type: 'image', data: 'AAAA', mimeType: 'image/png' })).toBe(
      '[image image/png, 3 bytes base64 omitted]',
    );
    expect(describeToolContentPart({ type: 'audio', data: 'AA==', mimeType: 'audio/wav' })).toBe(
      '[audio audio/wav, 1 bytes base64 omitted]',
    );
    expect(describeToolContentPart({ type: 'resource', resource: { uri: 'memo://1', text: 'note' } })).toBe(
      '[resource memo://1]\nnote',
    );
    expect(
      describeToolContentPart({
        type: 'resource',
        resource: { uri: 'memo://2', mimeType: 'application/zip', blob: 'AAA=' },
      }),
    ).toBe('[resource memo://2 application/zip, 2 bytes base64 omitted]');
    expect(
      describeToolContentPart({
        type: 'resource_link',
        uri: 'file:///a.txt',
        name: 'a.txt',
        title: 'A',
        description: 'the a file',
        size: 10,
      }),
    ).toBe('[resource link A <file:///a.txt> (10 bytes): the a file]');
    expect(describeToolContentPart({ type: 'resource_link', uri: 'memo://3', name: 'three' })).toBe(
      '[resource link three <memo://3>]',
    );
    expect(describeToolContentPart({ type: 'video' } as never)).toBe('[video content omitted]');
  });
});

describe('toToolResultText', () => {
  it('joins the parts by newlines', () => {
    expect(toToolResultText(ToolResult.of('a', ToolResult.image('AAAA', 'image/gif'), 'b'))).toBe(
      'a\n[image image/gif, 3 bytes base64 omitted]\nb',
    );
  });

  it('adds structuredContent as JSON only when there is no text part', () => {
    expect(toToolResultText(ToolResult.of().withStructuredContent({ n: 1 }))).toBe('{"n":1}');
    expect(toToolResultText(ToolResult.text('one'))).toBe('one');
    expect(toToolResultText(ToolResult.text('one').withStructuredContent({ n: 1 }))).toBe('one');
    expect(toToolResultText(ToolResult.image('AAAA', 'image/png').withStructuredContent({ n: 1 }))).toBe(
      '{"n":1}\n[image image/png, 3 bytes base64 omitted]',
    );
  });
});

describe('capToolResultText', () => {
  it('returns the same result when its text fits', () => {
    const result = ToolResult.of('abc', ToolResult.image('AAAA', 'image/png'));
    expect(capToolResultText(result, 3)).toBe(result);
  });

  it('shares the budget between text parts and text resources, keeping binary parts and structuredContent', () => {
    const result = ToolResult.of(
      'abcd',
      ToolResult.image('AAAA', 'image/png'),
      ToolResult.resource({ uri: 'memo://1', text: 'efgh' }),
      'ijk',
    ).withStructuredContent({ n: 1 });
    const capped = capToolResultText(result, 6);
    expect(capped.content).toEqual([
      { type: 'text', text: 'abcd' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'memo://1', text: 'ef… [truncated: 2 more characters]' } },
      { type: 'text', text: '… [truncated: 3 more characters]' },
    ]);
    expect(capped.structuredContent).toEqual({ n: 1 });
    expect(capToolResultText(ToolResult.of('abcdef'), 2).structuredContent).toBeUndefined();
  });
});
