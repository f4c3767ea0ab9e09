import type { MCPPromptInfo } from '../../../lib/mcp/client';
import { diffMcpCatalogDefinition } from '../../../lib/mcp/client/diff-mcp-definition';

const argument = (name: string, required: boolean, description = '') => ({ name, description, required });
const prompt = (args: MCPPromptInfo['arguments'], description = 'Reviews code'): MCPPromptInfo => ({
  name: 'review',
  description,
  arguments: args,
});

describe('diffMcpCatalogDefinition', () => {
  it('describes arguments added, removed, now required, no longer required and otherwise changed', () => {
    const before = prompt([
      argument('code', false),
      argument('style', true),
      argument('old', false),
      argument('x', false),
    ]);
    const after = prompt([
      argument('code', true),
      argument('style', false),
      argument('x', false, 'new'),
      argument('cc', true),
    ]);
    expect(diffMcpCatalogDefinition('prompt', before, after)).toEqual({
      fields: ['arguments'],
      details: [
        'arguments: argument "code" is now required',
        'arguments: argument "style" is no longer required',
        'arguments: argument "x" changed: {"description":"","name":"x","required":false} → {"description":"new","name":"x","required":false}',
        'arguments: new required argument "cc": {"description":"","name":"cc","required":true}',
        'arguments: argument "old" removed',
      ],
    });
  });

  it('reports an order-only change of arguments as one line', () => {
    const before = prompt([argument('a', false), argument('b', false)]);
    const after = prompt([argument('b', false), argument('a', false)]);
    expect(diffMcpCatalogDefinition('prompt', before, after).details).toEqual([
      expect.stringMatching(/^arguments: \[.*"a".*\] → \[.*"b".*\]$/),
    ]);
  });

  it('quotes a long description cut at 400 characters, and lists each changed annotation of a resource', () => {
    const long = 'x'.repeat(1_000);
    const diff = diffMcpCatalogDefinition('prompt', prompt([]), prompt([], long));
    expect(diff.fields).toEqual(['description']);
    expect(diff.details[0]).toBe(`description: "Reviews code" → "${'x'.repeat(399)}… (1002 characters)`);
    const resource = { uri: 'memo://1', name: 'n', description: '', annotations: { audience: ['user'] } };
    expect(
      diffMcpCatalogDefinition('resource', resource, {
        ...resource,
        mimeType: 'text/html',
        annotations: { priority: 1 },
      }),
    ).toEqual({
      fields: ['mimeType', 'annotations'],
      details: [
        'mimeType: (absent) → "text/html"',
        'annotations.audience: ["user"] → (absent)',
        'annotations.priority: (absent) → 1',
      ],
    });
  });
});
