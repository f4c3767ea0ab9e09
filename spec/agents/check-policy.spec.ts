import {
  ActionPolicyError,
  Agent,
  CapabilityPolicy,
  PolicyDecision,
  RunContext,
  ToolCancelledError,
  ToolInputError,
  ToolNotFoundError,
  ToolValidationError,
} from '../../lib';
import type { Policy } from '../../lib';
import { buildBridgeAgent } from '../fixtures/bridges/bridge-agent';

describe('Agent', () => {
  describe('checkPolicy', () => {
    it('returns what the policy decides for each call without running anything', async () => {
      const { agent, log } = buildBridgeAgent(() => {
        throw new Error('the approver must not be asked');
      });

      expect((await agent.checkPolicy('add', { a: 1, b: 2 })).effect).toBe('allow');
      expect((await agent.checkPolicy('publish', { title: 'Hi' })).effect).toBe('require_approval');
      const denied = await agent.checkPolicy('wipe', {});
      expect(denied).toBeInstanceOf(PolicyDecision);
      expect(denied.effect).toBe('deny');
      expect(denied.matchedCapabilities).toEqual(['system.wipe']);
      expect(log.calls).toEqual([]);
      expect(log.approvals).toEqual([]);
      expect(log.decisions).toEqual([]);
    });

    it('charges no budget', async () => {
      const { agent } = buildBridgeAgent();
      const context = new RunContext({ budget: { maxToolCalls: 1 } });

      await agent.checkPolicy('add', { a: 1, b: 2 }, context);
      await agent.checkPolicy('add', { a: 1, b: 2 }, context);

      expect(context.usage.toolCalls).toBe(0);
      await expect(agent.callToolInContext('add', context, { a: 1, b: 2 })).resolves.toEqual({ sum: 3 });
    });

    it("applies the context's permissions", async () => {
      const { agent } = buildBridgeAgent();
      const context = new RunContext({ permissions: { 'content.*': 'deny' } });

      expect((await agent.checkPolicy('publish', { title: 'Hi' }, context)).effect).toBe('deny');
    });

    it("applies the context's permissions to a custom policy too", async () => {
      const policy: Policy = { name: 'yes', evaluate: () => new PolicyDecision({ effect: 'allow' }) };
      const agent = new Agent({ card: { name: 'a', description: 'd', url: 'http://127.0.0.1:1' }, policy });
      agent.tool({ name: 'send', description: 'Sends.', capabilities: ['mail.send'] }, () => 'sent');
      const context = new RunContext({ permissions: { 'mail.send': 'require_approval' } });

      expect((await agent.checkPolicy('send', {})).effect).toBe('allow');
      expect((await agent.checkPolicy('send', {}, context)).effect).toBe('require_approval');
    });

    it('evaluates the action the action builder prepared (its capabilities and rewritten arguments)', async () => {
      const seen: unknown[] = [];
      const policy: Policy = {
        evaluate: (action) => {
          seen.push({ payload: action.payload, artifacts: action.artifacts.map((item) => item.content) });
          return new PolicyDecision({ effect: 'allow', policyName: 'spy' });
        },
      };
      const { agent: source } = buildBridgeAgent();
      const agent = new Agent({ card: { name: 'a', description: 'd', url: 'http://127.0.0.1:1' }, policy });
      const publish = source.getTool('publish');
      if (!publish) throw new Error('fixture lost its publish tool');
      agent.addTool(publish);

      await agent.checkPolicy('publish', { title: 'Hi' });

      expect(seen).toEqual([{ payload: { arguments: { title: 'Hi' } }, artifacts: ['Would publish "Hi"'] }]);
    });

    it('rejects invalid arguments with every problem, before the policy is asked', async () => {
      const { agent } = buildBridgeAgent();

      const error = await agent.checkPolicy('add', { a: 'x' }).catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(ToolValidationError);
      expect((error as ToolValidationError).issues.map((issue) => issue.path).sort()).toEqual(['a', 'b']);
    });

    it('coerces arguments as a call would ("3" for an integer)', async () => {
      const { agent } = buildBridgeAgent();
      await expect(agent.checkPolicy('add', { a: '3', b: 4 })).resolves.toBeInstanceOf(PolicyDecision);
    });

    it('rejects an unknown tool, listing the tools that exist', async () => {
      const { agent } = buildBridgeAgent();

      await expect(agent.checkPolicy('nope', {})).rejects.toBeInstanceOf(ToolNotFoundError);
      await expect(agent.checkPolicy('nope', {})).rejects.toThrow(/add/);
    });

    it('fails closed with ActionPolicyError when the policy throws', async () => {
      const policy: Policy = {
        name: 'broken',
        evaluate: () => {
          throw new Error('rules file missing');
        },
      };
      const agent = new Agent({ card: { name: 'a', description: 'd', url: 'http://127.0.0.1:1' }, policy });
      agent.tool({ name: 'ping', description: 'Pings.' }, () => 'pong');

      await expect(agent.checkPolicy('ping', {})).rejects.toBeInstanceOf(ActionPolicyError);
      await expect(agent.checkPolicy('ping', {})).rejects.toThrow(
        /Policy 'broken' failed while evaluating tool 'ping' \(rules file missing\)/,
      );
    });

    it('waits for an async policy, and stops waiting when the run is canceled', async () => {
      const policy: Policy = { evaluate: () => new Promise<PolicyDecision>(() => undefined) };
      const agent = new Agent({ card: { name: 'a', description: 'd', url: 'http://127.0.0.1:1' }, policy });
      agent.tool({ name: 'ping', description: 'Pings.' }, () => 'pong');
      const context = new RunContext();

      const pending = agent.checkPolicy('ping', {}, context);
      context.cancel('user left');

      await expect(pending).rejects.toBeInstanceOf(ToolCancelledError);
    });

    it('rejects at once in a canceled run', async () => {
      const { agent } = buildBridgeAgent();
      const context = new RunContext();
      context.cancel('done');

      await expect(agent.checkPolicy('add', { a: 1, b: 2 }, context)).rejects.toBeInstanceOf(
        ToolCancelledError,
      );
    });

    it('rejects a context that is not a RunContext', async () => {
      const { agent } = buildBridgeAgent();

      await expect(agent.checkPolicy('add', { a: 1, b: 2 }, {} as RunContext)).rejects.toBeInstanceOf(
        ToolInputError,
      );
      await expect(agent.checkPolicy('add', { a: 1, b: 2 }, {} as RunContext)).rejects.toThrow(
        /needs a RunContext/,
      );
    });

    it('uses the default CapabilityPolicy of an agent built without one', async () => {
      const agent = new Agent({ card: { name: 'a', description: 'd', url: 'http://127.0.0.1:1' } });
      agent.tool({ name: 'ping', description: 'Pings.' }, () => 'pong');

      expect(agent.policy).toBeInstanceOf(CapabilityPolicy);
      expect((await agent.checkPolicy('ping')).effect).toBe('allow');
    });
  });
});
