import { Agent } from '../../../lib/agents/agent';
import { ApprovalDecision } from '../../../lib/policy/approval-decision';
import { CapabilityPolicy } from '../../../lib/policy/capability-policy';
import { PolicyDecision } from '../../../lib/policy/policy-decision';
import { NativeTool } from '../../../lib/tools/native-tool';

const card = { name: 'researcher', description: 'Finds public information', url: 'runtime://researcher' };

function builtinTool(name: string, options: Record<string, unknown>): NativeTool {
  return new NativeTool({
    name,
    description: `Built-in ${name}`,
    capabilities: ['network.read'],
    metadata: { builtin: { id: name, options } },
    func: () => name,
  });
}

describe('serializeAgent', () => {
  describe('through Agent.toDict', () => {
    it('writes the card, built-ins by id, native tools by name and the first-party policy', () => {
      const agent = new Agent({
        card,
        policy: new CapabilityPolicy({ 'network.read': 'allow' }, { defaultEffect: 'deny' }),
        approvalHandler: (request) => new ApprovalDecision({ approved: true, requestId: request.requestId }),
        tools: [
          builtinTool('web_search', { engine: 'wikipedia' }),
          new NativeTool({ name: 'notes', description: 'Notes', func: () => 1 }),
        ],
      });
      const dict = agent.toDict();
      expect(dict).toEqual({
        card: agent.card.toJSON(),
        transport: 'runtime',
        skills: 'auto',
        tools: [
          { type: 'builtin', builtinId: 'web_search', name: 'web_search', options: { engine: 'wikipedia' } },
          { type: 'native', name: 'notes' },
        ],
        policy: {
          type: 'capability',
          name: 'capability_policy',
          defaultEffect: 'deny',
          rules: { 'network.read': 'allow' },
        },
      });
      expect(JSON.stringify(dict)).not.toContain('approved');
    });

    it('never writes secrets or callbacks from built-in options', () => {
      const agent = new Agent({
        card,
        tools: [
          builtinTool('web_search', {
            apiKey: 'sk-secret',
            nested: { token: 't0k3n', keep: 1, resolver: () => ['1.1.1.1'] },
            when: new Date(0),
            headers: { Authorization: 'Bearer x' },
            limit: Number.POSITIVE_INFINITY,
          }),
        ],
      });
      const text = JSON.stringify(agent.toDict());
      expect(agent.toDict().tools[0]).toEqual({
        type: 'builtin',
        builtinId: 'web_search',
        name: 'web_search',
        options: { nested: { keep: 1 } },
      });
      for (const secret of ['sk-secret', 't0k3n', 'Bearer', 'resolver']) expect(text).not.toContain(secret);
    });

    it('leaves out a custom policy, including a subclass of CapabilityPolicy', () => {
      class AuditedPolicy extends CapabilityPolicy {}
      const custom = new Agent({ card, policy: { evaluate: () => new PolicyDecision({ effect: 'allow' }) } });
      const subclass = new Agent({ card, policy: new AuditedPolicy({ a: 'deny' }) });
      expect(custom.toDict().policy).toBeUndefined();
      expect(subclass.toDict().policy).toBeUndefined();
    });

    it('groups MCP tools by server config without headers or environment, under mcpServers', () => {
      const config = {
        transport: 'http',
        url: 'http://127.0.0.1:9000/mcp',
        headers: { Authorization: 'Bearer secret' },
        env: { KEY: 'v' },
      };
      const mcpTool = (name: string) =>
        new NativeTool({ name, description: name, metadata: { mcp: config }, func: () => name });
      const agent = new Agent({ card, tools: [mcpTool('search'), mcpTool('fetch')] });
      const dict = agent.toDict();
      expect(dict.tools).toEqual([]);
      expect(dict.mcpServers).toEqual([
        { transport: 'http', url: 'http://127.0.0.1:9000/mcp', tools: ['search', 'fetch'] },
      ]);
      expect(JSON.stringify(dict)).not.toContain('secret');
    });
  });
});
