import { join } from 'node:path';
import { loadToolModule } from '../../lib/cli/load-tool-module';

const fixtures = join(__dirname, '..', 'fixtures', 'cli');

describe('loadToolModule', () => {
  it('builds an agent from a module whose classes declare only resources and prompts', async () => {
    const agent = loadToolModule(join(fixtures, 'catalog-only-module.ts'));
    expect(agent.tools.size).toBe(0);
    expect(agent.catalog.listResources().map((entry) => entry.uri)).toEqual(['handbook://intro']);
    await expect(agent.getPrompt('greet')).resolves.toEqual({
      description: 'Greets',
      messages: [{ role: 'user', content: { type: 'text', text: 'Hello' } }],
    });
  });

  it('still refuses a module with neither tools nor resources nor prompts', () => {
    expect(() => loadToolModule(join(fixtures, 'empty-module.ts'))).toThrow(/exports no tools/);
  });
});
