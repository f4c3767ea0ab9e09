import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { toResourceContents } from '../../lib/resources/resource-contents';
import { ToolResult } from '../../lib/tools/tool-result';

const where = "The resource 'docs://folder'";

describe('toResourceContents', () => {
  it('gives items without a URI the URI read, and keeps the URIs of sub-resources under it', () => {
    expect(
      toResourceContents(
        [{ text: 'index' }, { uri: 'docs://folder/a.md', text: 'a' }],
        'docs://folder',
        'text/markdown',
        where,
      ),
    ).toEqual({
      contents: [
        { uri: 'docs://folder', mimeType: 'text/markdown', text: 'index' },
        { uri: 'docs://folder/a.md', mimeType: 'text/markdown', text: 'a' },
      ],
    });
  });

  it.each([
    ['an item', [{ text: 'index' }, { uri: 'file:///etc/shadow', text: 'root' }], 2, 'file:///etc/shadow'],
    ['contents passed on', { contents: [{ uri: 'memo://fine', text: 'remote' }] }, 1, 'memo://fine'],
    [
      'a ToolResult',
      ToolResult.resource({ uri: 'docs://folder/../secret', text: 's' }),
      1,
      'docs://folder/../secret',
    ],
  ])(
    'refuses %s labelled with a URI outside the one read with a ToolDefinitionError',
    (_label, value, item, uri) => {
      const read = () => toResourceContents(value, 'docs://folder', undefined, where);
      expect(read).toThrow(ToolDefinitionError);
      expect(read).toThrow(
        `${where} returned item #${item} labelled ${JSON.stringify(uri)}, which is neither that URI nor a ` +
          'sub-resource under it; leave out the uri of items that hold this resource (they take the URI read).',
      );
    },
  );
});
