import 'reflect-metadata';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { Tool } from '../../../lib/tools/decorators/tool.decorator';
import { Toolset } from '../../../lib/tools/decorators/toolset.decorator';
import type { ToolsetOptions } from '../../../lib/tools/decorators/toolset.decorator';
import { scanTools } from '../../../lib/tools/registry/scan-tools';

@Toolset({ tags: ['crm'], capabilities: ['crm.read'], namePrefix: 'crm_' })
class CrmTools {
  @Tool({
    name: 'lookup',
    description: 'Find a customer',
    tags: ['read-only'],
    capabilities: ['crm.read', 'pii.read'],
  })
  lookup(): string {
    return 'found';
  }
}

class PlainTools {
  @Tool({ name: 'plain', description: 'No toolset' })
  plain(): string {
    return 'plain';
  }
}

describe('Toolset', () => {
  it('applies its name prefix, tags and capabilities before the tool own ones', () => {
    const [tool] = scanTools(new CrmTools());
    expect(tool.name).toBe('crm_lookup');
    expect(tool.tags).toEqual(['crm', 'read-only']);
    expect(tool.capabilities).toEqual(['crm.read', 'pii.read']);
    expect(tool.inputSchema.title).toBe('crm_lookupInput');
  });

  it('takes capabilities from a Set on the class and a generator on the method, read once, merged in order', () => {
    function* methodCapabilities(): Generator<string> {
      yield 'PII.Read';
      yield 'crm.read';
    }
    @Toolset({ capabilities: new Set(['crm.read', 'CRM.read']) })
    class SetTools {
      @Tool({ name: 'find', description: 'Find', capabilities: methodCapabilities() })
      find(): string {
        return 'found';
      }
    }
    const first = scanTools(new SetTools())[0];
    const again = scanTools(new SetTools())[0];
    expect(first.capabilities).toEqual(['crm.read', 'pii.read']);
    expect(again.capabilities).toEqual(['crm.read', 'pii.read']);
  });

  it('leaves classes without it untouched', () => {
    const [tool] = scanTools(new PlainTools());
    expect(tool.name).toBe('plain');
    expect(tool.tags).toEqual([]);
    expect(tool.capabilities).toEqual([]);
  });

  it('applies to subclasses, where an own @Toolset wins', () => {
    class ExtendedCrm extends CrmTools {}
    @Toolset({ namePrefix: 'sales_' })
    class SalesCrm extends CrmTools {}
    expect(scanTools(new ExtendedCrm()).map((tool) => tool.name)).toEqual(['crm_lookup']);
    expect(scanTools(new SalesCrm()).map((tool) => [tool.name, tool.tags])).toEqual([
      ['sales_lookup', ['read-only']],
    ]);
  });

  it('copies the caller lists, so later changes do not leak in', () => {
    const options: ToolsetOptions = { tags: ['one'] };
    @Toolset(options)
    class Copied {
      @Tool({ name: 'copied', description: 'x' })
      run(): number {
        return 1;
      }
    }
    options.tags!.push('two');
    expect(scanTools(new Copied())[0].tags).toEqual(['one']);
  });

  it('throws ToolDefinitionError when the prefix makes a name longer than 64 characters', () => {
    @Toolset({ namePrefix: 'p'.repeat(32) })
    class LongNames {
      @Tool({ name: 'n'.repeat(40), description: 'x' })
      run(): number {
        return 1;
      }
    }
    expect(() => scanTools(new LongNames())).toThrow(ToolDefinitionError);
    expect(() => scanTools(new LongNames())).toThrow(/it is 72 characters long \(at most 64\)/);
  });

  it.each<[string, unknown, string]>([
    ['null options', null, "@Toolset() options must be an object, e.g. @Toolset({ tags: ['travel'] })."],
    [
      'string options',
      'travel',
      "@Toolset() options must be an object, e.g. @Toolset({ tags: ['travel'] }).",
    ],
    [
      'a bad prefix',
      { namePrefix: 'crm.' },
      '@Toolset({ namePrefix: "crm." }) may only use [A-Za-z0-9_-], at most 32 characters.',
    ],
    [
      'a long prefix',
      { namePrefix: 'p'.repeat(33) },
      `@Toolset({ namePrefix: "${'p'.repeat(33)}" }) may only use [A-Za-z0-9_-], at most 32 characters.`,
    ],
    [
      'tags as a string',
      { tags: 'travel' },
      "@Toolset(): tags must be a list of strings, e.g. tags: ['travel'].",
    ],
    [
      'capabilities with a number',
      { capabilities: ['a', 1] },
      "@Toolset(): capability the number 1 is not a capability name (capabilities are strings such as 'network.read')",
    ],
  ])('throws ToolDefinitionError for %s', (_label, options, message) => {
    expect(() => Toolset(options as ToolsetOptions)).toThrow(ToolDefinitionError);
    expect(() => Toolset(options as ToolsetOptions)).toThrow(message);
  });

  describe('options that are not known', () => {
    it('accepts every option of ToolsetOptions at once', () => {
      // Required<…>: the compiler refuses this literal if ToolsetOptions gains or loses an option.
      const everyOption: Required<ToolsetOptions> = { tags: ['a'], capabilities: ['b'], namePrefix: 'c_' };
      expect(() => Toolset(everyOption)).not.toThrow();
    });

    it.each([
      [{ prefix: 'crm_' }, "@Toolset() option 'prefix' is not known: use namePrefix"],
      [{ name_prefix: 'crm_' }, "use 'namePrefix' instead"],
      [{ tag: ['a'] }, "option 'tag' is not known; did you mean 'tags'?"],
      [{ description: 'x' }, "option 'description' is not known; remove it"],
    ])('refuses %j with a ToolDefinitionError that names it', (options, message) => {
      expect(() => Toolset(options as ToolsetOptions)).toThrow(ToolDefinitionError);
      expect(() => Toolset(options as ToolsetOptions)).toThrow(message);
    });
  });
});
