import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { assertUntrustedPatterns } from '../../../lib/tools/validation/assert-untrusted-patterns';

const WHERE = 'MCP tool "t" on server \'s\'';

describe('assertUntrustedPatterns', () => {
  it('accepts patterns the linear-time engine runs, wherever they sit', () => {
    expect(() =>
      assertUntrustedPatterns(
        {
          type: 'object',
          properties: { a: { type: 'string', pattern: '^(a|a)*$' } },
          patternProperties: { '^x-\\d+$': { type: 'string' } },
          $defs: { d: { items: { pattern: '^\\s*$' } } },
        },
        WHERE,
      ),
    ).not.toThrow();
  });

  it.each([
    [{ properties: { a: { pattern: '^(a)\\1$' } } }, '#/properties/a/pattern'],
    [{ items: [{ anyOf: [{}, { pattern: '(?=x)' }] }] }, '#/items/0/anyOf/1/pattern'],
    [{ $defs: { d: { not: { pattern: '(?<!x)' } } } }, '#/$defs/d/not/pattern'],
    [
      { additionalProperties: { patternProperties: { '(?=k)': {} } } },
      '#/additionalProperties/patternProperties',
    ],
    [
      { definitions: { d: { propertyNames: { pattern: '\\k<n>' } } } },
      '#/definitions/d/propertyNames/pattern',
    ],
  ])('refuses %j, naming the tool and where the pattern sits', (schema, pointer) => {
    let caught: unknown;
    try {
      assertUntrustedPatterns(schema, WHERE);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ToolDefinitionError);
    const message = (caught as ToolDefinitionError).message;
    expect(message.startsWith(`${WHERE} has an input schema that cannot be used: The pattern `)).toBe(true);
    expect(message.endsWith(`(at '${pointer}')`)).toBe(true);
  });

  it('reads data keywords as data', () => {
    expect(() =>
      assertUntrustedPatterns(
        {
          enum: [{ pattern: '(?=x)' }],
          const: { pattern: '\\1' },
          default: { pattern: '(?=x)' },
          examples: [{ pattern: '(?=x)' }],
          properties: { pattern: { type: 'string' } },
        },
        WHERE,
      ),
    ).not.toThrow();
  });
});
