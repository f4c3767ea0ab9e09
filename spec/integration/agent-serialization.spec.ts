import 'reflect-metadata';
import { Agent } from '../../lib/agents/agent';
import { ActionDeniedError } from '../../lib/errors/action-denied-error';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { ApprovalDecision } from '../../lib/policy/approval-decision';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { calculator } from '../../lib/builtins/calculator/calculator';
import { currentDatetime } from '../../lib/builtins/datetime/current-datetime';
import { fetchUrl } from '../../lib/builtins/fetch-url/fetch-url';
import { webSearch } from '../../lib/builtins/web-search/web-search';
import { TravelTools } from '../fixtures/toolsets/travel-tools';

const card = {
  name: 'researcher',
  description: 'Finds and summarizes public information',
  url: 'runtime://researcher',
};

function researcher(): Agent {
  const agent = new Agent({
    card,
    policy: new CapabilityPolicy(
      { 'network.read': 'allow', 'records.*': 'require_approval' },
      { defaultEffect: 'deny', name: 'research_policy' },
    ),
    approvalHandler: (request) => new ApprovalDecision({ approved: true, requestId: request.requestId }),
  });
  agent.addTool(webSearch());
  agent.addTool(fetchUrl());
  agent.addTool(calculator());
  agent.addTool(currentDatetime());
  agent.addToolset(new TravelTools());
  return agent;
}

describe('Agent serialization (integration)', () => {
  it('round-trips through YAML: card, built-ins by id, policy rules; natives and handler from overrides', async () => {
    const original = researcher();
    const previousKey = process.env.BRAVE_SEARCH_API_KEY;
    process.env.BRAVE_SEARCH_API_KEY = 'BSA-never-serialized-123';
    let yaml: string;
    try {
      yaml = original.toYAML();
    } finally {
      if (previousKey === undefined) delete process.env.BRAVE_SEARCH_API_KEY;
      else process.env.BRAVE_SEARCH_API_KEY = previousKey;
    }
    expect(yaml).toContain('builtinId: web_search');
    expect(yaml).toContain('defaultEffect: deny');
    expect(yaml).not.toContain('BSA-never-serialized-123');
    expect(yaml).not.toMatch(/approvalHandler|=>|\[Function/);

    const approvals: string[] = [];
    const restored = Agent.fromYAML(yaml, {
      toolsets: [new TravelTools()],
      approvalHandler: (request) => {
        approvals.push(request.action.name);
        return true;
      },
    });
    expect(restored.toDict()).toEqual(original.toDict());
    expect([...restored.tools.keys()]).toEqual([...original.tools.keys()]);
    await expect(restored.callTool('calculator', { expression: '6 * 7' })).resolves.toEqual({
      expression: '6 * 7',
      result: 42,
    });
    await expect(
      restored.callTool('book_hotel', { booking: { location: 'Athens', guests: 2 } }),
    ).resolves.toEqual({ id: 'BK-1', guests: 2 });
    expect(approvals).toEqual(['book_hotel']);
    await expect(restored.callTool('greet', { name: 'Ada' })).resolves.toBe('Hello, Ada.');
    await expect(restored.callTool('current_datetime', { timezone: 'UTC' })).resolves.toMatchObject({
      timezone: 'UTC',
      utc_offset: '+00:00',
    });
  });

  it('lets an explicit policy override win over the serialized one', async () => {
    const yaml = researcher().toYAML();
    const restored = Agent.fromYAML(yaml, {
      toolsets: [new TravelTools()],
      policy: new CapabilityPolicy({}, { defaultEffect: 'deny' }),
    });
    await expect(restored.callTool('web_search', { query: 'x' })).rejects.toThrow(ActionDeniedError);
  });

  it('refuses YAML naming an unknown built-in, a malformed policy, or not YAML at all, naming the field', () => {
    const yaml = researcher().toYAML();
    const unknown = yaml.replace('builtinId: fetch_url', 'builtinId: teleport');
    expect(() => Agent.fromYAML(unknown, { toolsets: [new TravelTools()] })).toThrow(ToolInputError);
    expect(() => Agent.fromYAML(unknown, { toolsets: [new TravelTools()] })).toThrow(
      "tools[1].builtinId 'teleport' is not a known built-in tool; known ids: calculator, current_datetime, fetch_url, web_search",
    );
    const badPolicy = yaml.replace('defaultEffect: deny', 'defaultEffect: perhaps');
    expect(() => Agent.fromYAML(badPolicy, { toolsets: [new TravelTools()] })).toThrow(
      'policy.defaultEffect has the unsupported policy effect "perhaps"',
    );
    expect(() => Agent.fromYAML('{ card: [', {})).toThrow('The agent YAML is not valid YAML');
    expect(() => Agent.fromYAML(yaml)).toThrow(
      "is the native tool 'book_hotel', whose implementation is code and is not serialized",
    );
  });
});
