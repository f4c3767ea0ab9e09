import 'reflect-metadata';
import { Agent } from '../../lib/agents/agent';
import { ActionDeniedError } from '../../lib/errors/action-denied-error';
import { ApprovalRequiredError } from '../../lib/errors/approval-required-error';
import { ToolValidationError } from '../../lib/errors/tool-validation-error';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { MCPToolAdapter } from '../../lib/mcp/client';
import { testServerStdio } from '../fixtures/mcp/mcp-test-servers';

jest.setTimeout(30_000);

describe('MCPToolAdapter through an Agent', () => {
  const adapter = new MCPToolAdapter(
    testServerStdio({
      env: { EXTRA_SETTING: 'agent-secret-value' },
      capabilities: (definition) => (definition.annotations.readOnlyHint ? ['mcp.read'] : ['mcp.write']),
    }),
  );
  let agent: Agent;
  const serverCalls = async () => Number(await adapter.getCallable('call_count')());

  beforeAll(async () => {
    const tools = (await adapter.getTools()).filter((tool) => ['echo', 'add', 'slow'].includes(tool.name));
    agent = new Agent({
      card: { name: 'mcp-agent', description: 'Uses MCP tools', url: 'runtime://mcp-agent' },
      policy: new CapabilityPolicy({ 'mcp.read': 'allow', 'mcp.write': 'deny' }),
      tools,
    });
  });
  afterAll(() => adapter.close());

  it('runs an allowed MCP tool like a native one', async () => {
    expect(await agent.callTool('echo', { text: 'through the agent' })).toBe('through the agent');
  });

  it('never sends a call denied by policy to the server (the server counts calls)', async () => {
    const before = await serverCalls();
    const error = await agent.callTool('add', { a: 1, b: 2 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ActionDeniedError);
    expect((error as Error).message).toMatch(/add/);
    expect(await serverCalls()).toBe(before + 1);
  });

  it('never sends a call that needs approval when no handler approves it', async () => {
    const approving = new Agent({
      card: { name: 'approval-agent', description: 'Asks first', url: 'runtime://approval-agent' },
      policy: new CapabilityPolicy({ 'mcp.write': 'require_approval' }),
      tools: [await adapter.wrapTool('add')],
    });
    const before = await serverCalls();
    await expect(approving.callTool('add', { a: 1, b: 2 })).rejects.toBeInstanceOf(ApprovalRequiredError);
    expect(await serverCalls()).toBe(before + 1);
  });

  it('rejects bad arguments before the policy and before the server', async () => {
    const before = await serverCalls();
    const error = await agent.callTool('echo', { text: 42 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolValidationError);
    expect((error as Error).message).toContain("Invalid arguments for tool 'echo'");
    expect(await serverCalls()).toBe(before + 1);
  });

  it('serializes MCP tools grouped by server, without env values', () => {
    const dict = agent.toDict();
    expect(dict.mcpServers).toHaveLength(1);
    expect(dict.mcpServers?.[0]).toMatchObject({
      transport: 'stdio',
      server: 'test',
      tools: ['add', 'echo', 'slow'],
    });
    expect(JSON.stringify(dict)).not.toContain('agent-secret-value');
  });
});
