import { Agent } from '../../lib/agents/agent';
import { ActionDeniedError } from '../../lib/errors/action-denied-error';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { RunAction } from '../../lib/runtime/run-action';
import { RunContext } from '../../lib/runtime/run-context';

const card = { name: 'guarded', description: 'Has a policy', url: 'runtime://guarded' };

function denyNetwork(): Agent {
  return new Agent({ card, policy: new CapabilityPolicy({ 'network.*': 'deny' }) });
}

describe('Agent', () => {
  describe('tool() with capabilities', () => {
    it('takes capabilities as a Set and checks them with the policy', async () => {
      const agent = new Agent({ card, policy: new CapabilityPolicy({ 'records.write': 'deny' }) });
      agent.tool(
        { name: 'save', description: 'Saves', capabilities: new Set(['Records.Write']) },
        () => 'saved',
      );
      expect(agent.getTool('save')?.capabilities).toEqual(['records.write']);
      await expect(agent.callTool('save')).rejects.toBeInstanceOf(ActionDeniedError);
    });

    it('refuses capabilities given as a bare string instead of splitting them into characters', () => {
      const agent = new Agent({ card, policy: new CapabilityPolicy({ 'records.write': 'deny' }) });
      const register = () =>
        agent.tool(
          { name: 'save', description: 'Saves', capabilities: 'records.write' as never },
          () => 'saved',
        );
      expect(register).toThrow(ToolDefinitionError);
      expect(register).toThrow(
        "Tool 'save': capabilities must be a list, not the bare string 'records.write' (it would be read letter by letter); pass capabilities: ['records.write'].",
      );
      expect(agent.getTool('save')).toBeUndefined();
    });

    it.each([['Network.Read'], ['NETWORK.READ'], ['network']])(
      "denies a tool declaring %j under { 'network.*': 'deny' }",
      async (capability) => {
        const agent = denyNetwork();
        agent.tool({ name: 'fetch', description: 'Fetches', capabilities: [capability] }, () => 'fetched');
        await expect(agent.callTool('fetch')).rejects.toBeInstanceOf(ActionDeniedError);
      },
    );

    it.each([
      [' network.read', 'it has leading or trailing spaces'],
      ['n\u0435twork.read', 'U+0435'],
      ['network\u200b.read', 'U+200B'],
      ['\uff4eetwork.read', 'U+FF4E'],
    ])('refuses the look-alike capability %j at registration, with the fix', (capability, why) => {
      const agent = denyNetwork();
      const register = () =>
        agent.tool({ name: 'fetch', description: 'Fetches', capabilities: [capability] }, () => 'fetched');
      expect(register).toThrow(ToolDefinitionError);
      expect(register).toThrow(why);
      expect(register).toThrow('write capabilities as lower-case ASCII words of [a-z0-9_-] joined by dots');
    });

    it("denies an action builder's capabilities written in upper case", async () => {
      const agent = denyNetwork();
      agent.tool(
        {
          name: 'fetch',
          description: 'Fetches',
          actionBuilder: (args) =>
            new RunAction({
              kind: 'tool.call',
              name: 'fetch',
              payload: { arguments: args },
              capabilities: ['Network.Read'],
            }),
        },
        () => 'fetched',
      );
      await expect(agent.callTool('fetch')).rejects.toBeInstanceOf(ActionDeniedError);
    });

    it('applies rule keys and run permissions written in upper case', async () => {
      const agent = new Agent({ card, policy: new CapabilityPolicy({ 'Network.*': 'deny' }) });
      agent.tool({ name: 'fetch', description: 'Fetches', capabilities: ['network.read'] }, () => 'fetched');
      agent.tool({ name: 'save', description: 'Saves', capabilities: ['records.write'] }, () => 'saved');
      await expect(agent.callTool('fetch')).rejects.toBeInstanceOf(ActionDeniedError);
      const narrowed = new RunContext({ permissions: { 'RECORDS.*': 'deny' } });
      await expect(agent.callToolInContext('save', narrowed)).rejects.toBeInstanceOf(ActionDeniedError);
      await expect(agent.callTool('save')).resolves.toBe('saved');
    });

    it.each(['constructor', '__proto__', 'toString'])(
      'refuses the effect %j in policy rules and run permissions instead of reading it as allow',
      (effect) => {
        expect(() => new CapabilityPolicy({ 'network.read': effect })).toThrow(ToolInputError);
        expect(() => new CapabilityPolicy({ 'network.read': effect })).toThrow(
          `has the unsupported policy effect "${effect}"`,
        );
        expect(() => new RunContext({ permissions: { 'network.read': effect } })).toThrow(ToolInputError);
        expect(() => new CapabilityPolicy({}, { defaultEffect: effect })).toThrow(ToolInputError);
      },
    );
  });

  describe('tool() without an inputSchema', () => {
    it('refuses a function with parameters, saying to pass inputSchema or use @Tool', () => {
      const agent = new Agent({ card });
      const register = () =>
        agent.tool(
          { name: 'greet', description: 'Greets' },
          (args: Record<string, unknown>) => `hi ${String(args.who)}`,
        );
      expect(register).toThrow(ToolDefinitionError);
      expect(register).toThrow(
        "Tool 'greet' has a function that takes arguments but no inputSchema, so every call with arguments would be refused",
      );
      expect(register).toThrow('Pass inputSchema: a DTO class or a JSON Schema');
      expect(register).toThrow('or declare the tool with @Tool on a class method');
      expect(() => agent.tool({ name: 'greet', description: 'Greets' })((args) => args)).toThrow(
        ToolDefinitionError,
      );
      expect(agent.getTool('greet')).toBeUndefined();
    });

    it('keeps registering functions without parameters, and functions with an inputSchema', async () => {
      const agent = new Agent({ card });
      agent.tool({ name: 'ping', description: 'Replies pong' }, () => 'pong');
      agent.tool(
        {
          name: 'greet',
          description: 'Greets',
          inputSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
        },
        (args: Record<string, unknown>) => `hi ${String(args.who)}`,
      );
      await expect(agent.callTool('ping')).resolves.toBe('pong');
      await expect(agent.callTool('greet', { who: 'Ada' })).resolves.toBe('hi Ada');
    });
  });
});
