import 'reflect-metadata';
import { Agent } from '../../../lib/agents/agent';
import type { BuiltinToolFactory } from '../../../lib/agents/builtin-tool-factories';
import type { AgentRestoreOverrides } from '../../../lib/agents/serialization/restore-agent';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { CapabilityPolicy } from '../../../lib/policy/capability-policy';
import { PolicyDecision } from '../../../lib/policy/policy-decision';
import { NativeTool } from '../../../lib/tools/native-tool';
import { TravelTools } from '../../fixtures/toolsets/travel-tools';

const card = { name: 'researcher', description: 'Finds public information', url: 'runtime://researcher' };

const factories: Record<string, BuiltinToolFactory> = {
  clock: (options) =>
    new NativeTool({
      name: 'clock',
      description: 'Tell the time',
      metadata: { builtin: { id: 'clock', options: options ?? {} } },
      func: () => `time in ${String(options?.zone ?? 'UTC')}`,
    }),
  strict: (options) => {
    if (options && 'bad' in options) throw new RangeError('bad option');
    return new NativeTool({
      name: 'strict',
      description: 'Strict',
      metadata: { builtin: { id: 'strict', options: {} } },
      func: () => 1,
    });
  },
};

function validData(): Record<string, unknown> {
  return {
    card: { ...card, skills: [] },
    transport: 'runtime',
    skills: 'auto',
    tools: [{ type: 'builtin', builtinId: 'clock', name: 'clock', options: { zone: 'Europe/Athens' } }],
    policy: { type: 'capability', rules: { 'network.read': 'allow' }, defaultEffect: 'deny' },
  };
}

describe('restoreAgentOptions', () => {
  describe('through Agent.fromDict', () => {
    it('restores card, built-ins through their factories and the policy', async () => {
      const agent = Agent.fromDict(validData(), { builtinFactories: factories });
      expect(agent.card.name).toBe('researcher');
      expect(agent.policy).toBeInstanceOf(CapabilityPolicy);
      expect((agent.policy as CapabilityPolicy).toDict()).toEqual({
        type: 'capability',
        name: 'capability_policy',
        defaultEffect: 'deny',
        rules: { 'network.read': 'allow' },
      });
      await expect(agent.callTool('clock')).resolves.toBe('time in Europe/Athens');
      expect(agent.card.skills.map((skill) => skill.id)).toEqual(['clock']);
    });

    it('lets overrides give the policy, the approval handler and native toolsets', async () => {
      const data = { ...validData(), tools: [{ type: 'native', name: 'add' }] };
      const policy = { evaluate: () => new PolicyDecision({ effect: 'allow' }) };
      const approvalHandler = () => true;
      const agent = Agent.fromDict(data, { policy, approvalHandler, toolsets: [new TravelTools()] });
      expect(agent.policy).toBe(policy);
      expect(agent.approvalHandler).toBe(approvalHandler);
      await expect(agent.callTool('add', { a: 1, b: 2 })).resolves.toBe(3);
      expect(agent.tools.has('book_hotel')).toBe(true);
    });

    it('keeps serialized MCP servers for an adapter to reconnect, and writes them back', () => {
      const servers = [{ transport: 'stdio', command: 'node', args: ['server.js'], tools: ['echo'] }];
      const agent = Agent.fromDict({ ...validData(), mcpServers: servers }, { builtinFactories: factories });
      expect(agent.mcpServers).toEqual(servers);
      expect(agent.toDict().mcpServers).toEqual(servers);
    });

    it('throws ToolInputError naming the field for every malformed part', () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ ...validData(), polciy: {} }, "Agent data has the unknown field 'polciy'"],
        [{ ...validData(), card: { name: 'x' } }, 'card.description must be a non-empty string.'],
        [{ ...validData(), transport: 'smtp' }, `transport must be one of 'runtime', 'http'; got "smtp".`],
        [{ ...validData(), skills: 'all' }, `skills must be one of 'auto', 'fixed'; got "all".`],
        [
          { ...validData(), policy: { rules: { 'network.read': 'sometimes' } } },
          `policy.rules['network.read'] has the unsupported policy effect "sometimes"`,
        ],
        [
          { ...validData(), policy: { type: 'opa' } },
          `policy.type is "opa"; only 'capability' policies are serialized`,
        ],
        [{ ...validData(), policy: 'deny' }, 'policy must be an object'],
        [{ ...validData(), tools: {} }, 'tools must be a list of'],
        [{ ...validData(), tools: ['clock'] }, 'tools[0] must be an object'],
        [
          { ...validData(), tools: [{ type: 'builtin', name: 'x', builtinId: 'teleport' }] },
          "tools[0].builtinId 'teleport' is not a known built-in tool; known ids: calculator, clock, current_datetime, fetch_url, strict, web_search.",
        ],
        [
          { ...validData(), tools: [{ type: 'builtin', name: 'x' }] },
          'tools[0].builtinId must name a built-in tool',
        ],
        [
          { ...validData(), tools: [{ type: 'builtin', name: 'clock2', builtinId: 'clock' }] },
          "tools[0].name is 'clock2' but the 'clock' factory builds 'clock'",
        ],
        [
          { ...validData(), tools: [{ type: 'builtin', name: 'clock', builtinId: 'clock', options: [1] }] },
          'tools[0].options must be an object',
        ],
        [
          {
            ...validData(),
            tools: [{ type: 'builtin', name: 'strict', builtinId: 'strict', options: { bad: 1 } }],
          },
          "tools[0].options were refused by the 'strict' factory: bad option",
        ],
        [
          { ...validData(), tools: [{ type: 'native', name: 'notes' }] },
          "tools[0] is the native tool 'notes', whose implementation is code and is not serialized",
        ],
        [
          { ...validData(), tools: [{ type: 'mcp', name: 'm' }] },
          "tools[0].type must be 'builtin' or 'native'",
        ],
        [{ ...validData(), tools: [{ type: 'native' }] }, 'tools[0].name must be a non-empty string.'],
        [
          {
            ...validData(),
            tools: [
              { type: 'builtin', builtinId: 'clock', name: 'clock' },
              { type: 'builtin', builtinId: 'clock', name: 'clock' },
            ],
          },
          "tools[1].name 'clock' appears twice",
        ],
        [{ ...validData(), mcpServers: {} }, 'mcpServers must be a list of server entries.'],
        [
          { ...validData(), mcpServers: [{ tools: [1] }] },
          'mcpServers[0].tools must be a list of tool names.',
        ],
      ];
      for (const [data, message] of cases) {
        expect(() => Agent.fromDict(data, { builtinFactories: factories })).toThrow(ToolInputError);
        expect(() => Agent.fromDict(data, { builtinFactories: factories })).toThrow(message);
      }
      expect(() => Agent.fromDict(null)).toThrow('Agent data must be an object');
    });

    it('creates no tool at all when a later entry is malformed (nothing half-restored)', () => {
      const clock = jest.fn(factories.clock);
      const data = {
        ...validData(),
        tools: [
          { type: 'builtin', builtinId: 'clock', name: 'clock' },
          { type: 'builtin', builtinId: 'nope', name: 'nope' },
        ],
      };
      expect(() => Agent.fromDict(data, { builtinFactories: { clock } })).toThrow(
        "tools[1].builtinId 'nope' is not a known built-in tool",
      );
      const policyBad = { ...validData(), policy: { defaultEffect: 'maybe' } };
      expect(() => Agent.fromDict(policyBad, { builtinFactories: { clock } })).toThrow(
        'policy.defaultEffect has the unsupported policy effect "maybe"',
      );
      expect(clock).toHaveBeenCalledTimes(1);
    });
  });

  describe('overrides that are not known', () => {
    // Required<…>: the compiler refuses this literal if AgentRestoreOverrides gains or loses an option.
    const everyOverride: Required<AgentRestoreOverrides> = {
      policy: new CapabilityPolicy(),
      approvalHandler: () => true,
      elicitationHandler: () => ({ action: 'decline' }),
      samplingHandler: () => ({ role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'spec' }),
      tools: [],
      toolsets: [],
      builtinFactories: factories,
      telemetry: { tracing: false },
    };

    it('takes every override at once, handlers included', () => {
      const agent = Agent.fromDict(validData(), everyOverride);
      expect(agent.elicitationHandler).toBe(everyOverride.elicitationHandler);
      expect(agent.samplingHandler).toBe(everyOverride.samplingHandler);
    });

    it.each([
      [
        { approval_handler: () => true },
        "option 'approval_handler' is not known: it is the original's snake_case spelling; options are camelCase, use 'approvalHandler' instead.",
      ],
      [{ card }, "option 'card' is not known: the card comes from the data; change it there."],
      [{ toolset: [] }, "option 'toolset' is not known; did you mean 'toolsets'?"],
    ])('refuses %j with a ToolDefinitionError that names it', (overrides, message) => {
      const restore = () => Agent.fromDict(validData(), { builtinFactories: factories, ...overrides });
      expect(restore).toThrow(ToolDefinitionError);
      expect(restore).toThrow(`Agent.fromDict()/fromYAML() ${message}`);
    });
  });
});
