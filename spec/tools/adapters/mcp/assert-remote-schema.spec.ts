import { ToolDefinitionError } from '../../../../lib/errors/tool-definition-error';
import { assertRemoteSchema } from '../../../../lib/tools/adapters/mcp/assert-remote-schema';

const limits = { maxChars: 10_000, maxDepth: 16 };
const where = 'MCP tool "t" on server \'s\'';

describe('assertRemoteSchema', () => {
  it('accepts ordinary and recursive schemas', () => {
    expect(() =>
      assertRemoteSchema({ type: 'object', properties: { a: { type: 'string' } } }, limits, where),
    ).not.toThrow();
    const tree = { type: 'object', properties: { children: { type: 'array', items: { $ref: '#' } } } };
    expect(() => assertRemoteSchema(tree, limits, where)).not.toThrow();
  });

  it.each([
    ['not an object', [], `${where} has an input schema that is not a JSON object.`],
    [
      'too large',
      { type: 'object', description: 'x'.repeat(20_000) },
      `${where} has an input schema of 20034 characters (at most 10000).`,
    ],
    [
      'too deep',
      JSON.parse(`${'{"a":'.repeat(20)}1${'}'.repeat(20)}`),
      `${where} has an input schema nested deeper than 16 levels.`,
    ],
    [
      'a $ref cycle',
      {
        properties: { x: { $ref: '#/$defs/a' } },
        $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } },
      },
      `${where} has an input schema whose $ref '#/$defs/a' points only at itself through other $refs.`,
    ],
    [
      'a remote $ref',
      { properties: { x: { $ref: 'https://evil.example/schema' } } },
      `${where} has an input schema with the unresolvable $ref 'https://evil.example/schema' (only local refs are supported).`,
    ],
  ])('rejects a schema that is %s', (_label, schema, message) => {
    expect(() => assertRemoteSchema(schema, limits, where)).toThrow(new ToolDefinitionError(message));
  });
});
