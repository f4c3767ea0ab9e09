import 'reflect-metadata';
import { Agent } from '../../lib/agents/agent';
import { ActionDeniedError } from '../../lib/errors/action-denied-error';
import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { ToolValidationError } from '../../lib/errors/tool-validation-error';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import type { Policy } from '../../lib/policy/policy';
import { PolicyDecision } from '../../lib/policy/policy-decision';
import { RunAction } from '../../lib/runtime/run-action';
import { RunContext } from '../../lib/runtime/run-context';

const card = { name: 'records', description: 'Records', url: 'http://127.0.0.1:0' };
const allowAll: Policy = { evaluate: () => new PolicyDecision({ effect: 'allow', policyName: 'allow_all' }) };

function agentWith(policy: Policy, runs: string[]): Agent {
  const agent = new Agent({ card, policy });
  agent.tool({ name: 'write', description: 'Write', capabilities: ['records.write'] }, () => {
    runs.push('write');
    return 'written';
  });
  return agent;
}

describe('Agent call path, hardened', () => {
  it('narrows a custom policy with the run permissions too', async () => {
    const runs: string[] = [];
    const agent = agentWith(allowAll, runs);
    const readOnly = new RunContext({ permissions: { 'records.*': 'deny' } });
    await expect(agent.callToolInContext('write', readOnly)).rejects.toBeInstanceOf(ActionDeniedError);
    await expect(agent.callToolInContext('write', readOnly)).rejects.toThrow(
      /Run permissions narrowed 'allow_all'/,
    );
    expect(runs).toEqual([]);
    expect(await agent.callToolInContext('write', new RunContext({}))).toBe('written');
  });

  it('narrows an async custom policy as well', async () => {
    const runs: string[] = [];
    const asyncAllow: Policy = {
      evaluate: async () => new PolicyDecision({ effect: 'allow', policyName: 'async_allow' }),
    };
    const agent = agentWith(asyncAllow, runs);
    const child = new RunContext({}).child({ permissions: { '*': 'deny' } });
    await expect(agent.callToolInContext('write', child)).rejects.toBeInstanceOf(ActionDeniedError);
    expect(runs).toEqual([]);
  });

  it('rejects a call whose async actionBuilder never answers when the run is canceled', async () => {
    const agent = new Agent({ card });
    agent.tool(
      {
        name: 'stuck',
        description: 'Never prepared',
        actionBuilder: () => new Promise<RunAction>(() => undefined),
      },
      () => 'ran',
    );
    const context = new RunContext({});
    const call = agent.callToolInContext('stuck', context);
    setTimeout(() => context.cancel('user stopped'), 10);
    await expect(call).rejects.toBeInstanceOf(ToolCancelledError);
    await expect(call).rejects.toThrow(/Preparing the action of tool 'stuck' was still pending/);
  });

  it('validates arguments an actionBuilder changed in place', async () => {
    const runs: unknown[] = [];
    const agent = new Agent({ card });
    agent.tool(
      {
        name: 'bounded',
        description: 'At most 10',
        inputSchema: { type: 'object', properties: { n: { type: 'integer', maximum: 10 } }, required: ['n'] },
        actionBuilder: (args) => {
          args.n = 1e9;
          return new RunAction({ kind: 'tool.call', name: 'bounded', payload: { arguments: args } });
        },
      },
      (args) => runs.push(args.n),
    );
    await expect(agent.callTool('bounded', { n: 1 })).rejects.toBeInstanceOf(ToolValidationError);
    expect(runs).toEqual([]);
  });

  it('keeps cancellation going when a cancel listener throws', async () => {
    const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const agent = new Agent({ card });
      agent.tool({ name: 'forever', description: 'Never ends' }, () => new Promise(() => undefined));
      const context = new RunContext({});
      context.onCanceled(() => {
        throw new RangeError('listener broke');
      });
      const call = agent.callToolInContext('forever', context);
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(() => context.cancel('stop')).not.toThrow();
      await expect(call).rejects.toBeInstanceOf(ToolCancelledError);
      expect(context.signal.aborted).toBe(true);
      expect(emitWarning).toHaveBeenCalledWith('A RunContext cancel listener threw: listener broke', {
        code: 'PROTOLINK_CANCEL_LISTENER',
      });
    } finally {
      emitWarning.mockRestore();
    }
  });
});

describe('Agent serialization, hardened', () => {
  it('refuses to restore an agent with a custom policy unless the policy is passed again', () => {
    class StrictPolicy extends CapabilityPolicy {}
    const agent = new Agent({
      card,
      policy: new StrictPolicy({ 'records.write': 'deny' }, { defaultEffect: 'deny' }),
    });
    const data = agent.toDict();
    expect(data.policy).toBeUndefined();
    expect(data.customPolicy).toBe('capability_policy');
    expect(() => Agent.fromDict(data)).toThrow(ToolInputError);
    expect(() => Agent.fromDict(data)).toThrow(
      /custom policy \('capability_policy'\) that data cannot carry; pass it as overrides\.policy/,
    );
    const restored = Agent.fromDict(data, { policy: allowAll });
    expect(restored.policy).toBe(allowAll);
    expect(() => Agent.fromYAML(agent.toYAML())).toThrow(/pass it as overrides\.policy/);
  });

  it('never writes secrets of MCP server entries it carries', () => {
    const agent = new Agent({
      card,
      mcpServers: [
        {
          transport: 'http',
          url: 'https://user:pass@mcp.example/mcp?token=abc',
          headers: { Authorization: 'Bearer SECRET' },
          env: { API_KEY: 'SECRET2' },
          tools: ['echo'],
        } as never,
      ],
    });
    const text = JSON.stringify(agent.toDict()) + agent.toYAML();
    for (const secret of ['SECRET', 'pass@', 'token=abc', 'user:']) expect(text).not.toContain(secret);
    expect(agent.toDict().mcpServers).toEqual([
      { transport: 'http', url: 'https://mcp.example/mcp?token=redacted', tools: ['echo'] },
    ]);
  });
});

describe('Agent card', () => {
  it('copies a given AgentCard, so agents built on one card keep their own skills', async () => {
    const { AgentCard } = await import('../../lib/agents/agent-card');
    const shared = new AgentCard(card);
    const first = new Agent({ card: shared });
    const second = new Agent({ card: shared });
    first.tool({ name: 'only_first', description: 'First only' }, () => 1);
    expect(first.card.skills.map((skill) => skill.id)).toEqual(['only_first']);
    expect(second.card.skills).toEqual([]);
    expect(shared.skills).toEqual([]);
  });
});
