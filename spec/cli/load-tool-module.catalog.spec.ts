import { join } from 'node:path';
import { loadToolModule } from '../../lib/cli/load-tool-module';
import { ActionDeniedError } from '../../lib/errors/action-denied-error';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';

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

  it("keeps an exported agent's resources and prompts when a policy replaces its own", async () => {
    const agent = loadToolModule(join(fixtures, 'catalog-agent-module.ts'), {
      policy: new CapabilityPolicy({ 'handbook.read': 'deny' }),
    });
    expect(agent.catalog.listPrompts().map((entry) => entry.name)).toEqual(['greet']);
    await expect(agent.readResource('handbook://intro')).rejects.toThrow(ActionDeniedError);
  });

  it('still refuses a module with neither tools nor resources nor prompts', () => {
    expect(() => loadToolModule(join(fixtures, 'empty-module.ts'))).toThrow(/exports no tools/);
  });
});
