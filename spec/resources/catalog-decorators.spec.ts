import 'reflect-metadata';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { Prompt } from '../../lib/prompts/prompt.decorator';
import { CatalogRegistry } from '../../lib/resources/catalog-registry';
import { Resource } from '../../lib/resources/resource.decorator';
import { ResourceTemplate } from '../../lib/resources/resource-template.decorator';
import { scanCatalog } from '../../lib/resources/scan-catalog';
import { Param } from '../../lib/tools/decorators/param.decorator';
import { scanTools } from '../../lib/tools/registry/scan-tools';

function definitionError(run: () => unknown): ToolDefinitionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return error as ToolDefinitionError;
  }
  throw new Error('expected a ToolDefinitionError');
}

describe('@Resource', () => {
  it('refuses a URI without a scheme', () => {
    expect(definitionError(() => Resource({ uri: 'readme' })).message).toBe(
      `@Resource({ uri: "readme" }) needs a uri with a scheme and no whitespace, e.g. 'config://app' or 'file:///notes/today.md'.`,
    );
  });

  it('sends a URI with a variable to @ResourceTemplate', () => {
    expect(definitionError(() => Resource({ uri: 'notes://{id}' })).message).toBe(
      `@Resource({ uri: "notes://{id}" }) has a variable in its uri; declare it with @ResourceTemplate({ uriTemplate: "notes://{id}" }).`,
    );
  });

  it('refuses an option it does not know, with advice', () => {
    expect(() => Resource({ uri: 'a://b', complete: {} } as never)).toThrow(/complete/);
  });

  it('refuses a resource method with arguments when scanned', () => {
    class WithArgs {
      @Resource({ uri: 'a://b' })
      read(@Param('x') x: string): string {
        return x;
      }
    }
    expect(definitionError(() => scanCatalog(new WithArgs())).message).toBe(
      'WithArgs.read is a @Resource with arguments; a fixed URI has none. Use @ResourceTemplate({ uriTemplate }) with a variable per @Param, or keep only @Context().',
    );
  });

  it('refuses two catalog decorators on one method and a static method', () => {
    expect(
      definitionError(() => {
        class Twice {
          @Resource({ uri: 'a://b' })
          @Prompt({ name: 'p' })
          read(): string {
            return '';
          }
        }
        return Twice;
      }).message,
    ).toBe('Twice.read has two of @Resource, @ResourceTemplate and @Prompt; keep one.');
    expect(
      definitionError(() => {
        class Static {
          @Resource({ uri: 'a://b' })
          static read(): string {
            return '';
          }
        }
        return Static;
      }).message,
    ).toBe('@Resource({ uri: "a://b" }) is on the static method read; put it on an instance method.');
  });

  it('leaves tool scanning unchanged: catalog methods are not tools, and @Params of them are not orphans', () => {
    class Mixed {
      @ResourceTemplate({ uriTemplate: 'a://{x}' })
      read(@Param('x') x: string): string {
        return x;
      }
    }
    expect(scanTools(new Mixed())).toEqual([]);
    class Orphan {
      read(@Param('x') x: string): string {
        return x;
      }
    }
    expect(() => scanTools(new Orphan())).toThrow(
      'Orphan.read has @Param/@Context parameters but no @Tool decorator.',
    );
  });
});

describe('@ResourceTemplate', () => {
  it('refuses a template without variables', () => {
    expect(definitionError(() => ResourceTemplate({ uriTemplate: 'a://b' })).message).toBe(
      `@ResourceTemplate({ uriTemplate: "a://b" }) has no variable; a fixed URI is a @Resource({ uri: "a://b" }).`,
    );
  });

  it('refuses an unclosed expression', () => {
    expect(definitionError(() => ResourceTemplate({ uriTemplate: 'a://{b' })).message).toBe(
      `@ResourceTemplate({ uriTemplate: "a://{b" }): The URI template has an unclosed '{'.`,
    );
  });

  it('refuses a completion provider for a variable the template does not have', () => {
    expect(
      definitionError(() => ResourceTemplate({ uriTemplate: 'a://{b}', complete: { c: () => [] } })).message,
    ).toBe(
      `@ResourceTemplate({ uriTemplate: "a://{b}" }): complete.c names no variable of the template; its variables are b.`,
    );
  });

  it('refuses @Params that are not the template variables', () => {
    class Mismatch {
      @ResourceTemplate({ uriTemplate: 'a://{folder}/{id}' })
      read(@Param('folder') folder: string): string {
        return folder;
      }
    }
    expect(definitionError(() => scanCatalog(new Mismatch())).message).toBe(
      "Mismatch.read: the template's variables (folder, id) and the method's @Params (folder) must be the same names; add @Param('id').",
    );
  });

  it('reads reserved ({+path}) and query ({?q}) variables, percent-decoded', async () => {
    class Files {
      @ResourceTemplate({ uriTemplate: 'files://{+path}{?q}' })
      read(@Param('path') path: string, @Param('q') q: string): string {
        return `${path}|${q}`;
      }
    }
    const registry = new CatalogRegistry();
    registry.add(registry.scan(new Files()));
    expect(registry.resolveResource('files://docs/a%20b.md?q=x%2Fy').args).toEqual({
      path: 'docs/a b.md',
      q: 'x/y',
    });
  });
});

describe('@Prompt', () => {
  it('refuses a name with whitespace', () => {
    expect(definitionError(() => Prompt({ name: 'two words' })).message).toBe(
      `@Prompt() has the invalid name "two words": use 1–128 characters without whitespace, e.g. 'summarize_text'.`,
    );
  });

  it('refuses a provider that is not a function, and one for an argument the method does not have', () => {
    expect(definitionError(() => Prompt({ name: 'p', complete: { a: 'x' as never } })).message).toBe(
      `@Prompt({ name: 'p' }): complete.a must be a function (value, context?) => string[].`,
    );
    class Unknown {
      @Prompt({ name: 'p', complete: { tone: () => [] } })
      get(@Param('text') text: string): string {
        return text;
      }
    }
    expect(definitionError(() => scanCatalog(new Unknown())).message).toBe(
      'Unknown.get: complete.tone names no argument of the prompt; its arguments are text.',
    );
  });

  it('lists its @Params as arguments, with descriptions and whether they are required', () => {
    class Prompts {
      @Prompt({ name: 'p', description: 'd' })
      get(
        @Param('a', { description: 'first' }) a: string,
        @Param('b', { optional: true }) b?: string,
      ): string {
        return a + (b ?? '');
      }
    }
    const [entry] = scanCatalog(new Prompts());
    expect(entry.kind === 'prompt' && entry.arguments).toEqual([
      { name: 'a', description: 'first', required: true },
      { name: 'b', description: undefined, required: false },
    ]);
  });
});
