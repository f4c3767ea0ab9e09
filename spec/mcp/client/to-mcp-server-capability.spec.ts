import 'reflect-metadata';
import { Agent } from '../../../lib/agents/agent';
import { ActionDeniedError } from '../../../lib/errors/action-denied-error';
import { ApprovalRequiredError } from '../../../lib/errors/approval-required-error';
import { CapabilityPolicy } from '../../../lib/policy/capability-policy';
import { MCPToolAdapter, toMcpServerCapability } from '../../../lib/mcp/client';
import type { NativeTool } from '../../../lib/tools/native-tool';
import { testServerStdio } from '../../fixtures/mcp/mcp-test-servers';

jest.setTimeout(60_000);

const CAPABILITY_GRAMMAR = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;

describe('toMcpServerCapability', () => {
  it.each([
    ['github', 'mcp.github'],
    ['GitHub', 'mcp.github'],
    ['stdio:node', 'mcp.stdio_node'],
    ['http:127.0.0.1:8080', 'mcp.http_127_0_0_1_8080'],
    ['weather.api', 'mcp.weather_api'],
    ['Café Ünï', 'mcp.cafe_uni'],
    ['ｇｉｔ', 'mcp.git'],
    ['my-server_2', 'mcp.my-server_2'],
    ['', 'mcp.server'],
  ])('turns the server name %j into %j, one segment of the capability grammar', (serverName, expected) => {
    const capability = toMcpServerCapability(serverName);
    expect(capability).toBe(expected);
    expect(capability).toMatch(CAPABILITY_GRAMMAR);
  });
});

describe('MCPToolAdapter capabilities', () => {
  const adapter = new MCPToolAdapter(testServerStdio());
  const derived = new MCPToolAdapter(testServerStdio({ serverName: undefined }));
  let tools: NativeTool[];
  const card = { name: 'policy-agent', description: 'Uses MCP tools', url: 'runtime://policy-agent' };
  const serverCalls = async () => Number(await adapter.getCallable('call_count')());

  beforeAll(async () => {
    tools = (await adapter.getTools()).filter((tool) => ['add', 'echo'].includes(tool.name));
  });
  afterAll(async () => {
    await Promise.all([adapter.close(), derived.close()]);
  });

  it('gives every MCP tool the capability mcp.<serverName> without any capabilities option', () => {
    for (const tool of tools) expect(tool.capabilities).toEqual(['mcp.test']);
  });

  it('derives the capability from the default server name when none is given', async () => {
    const add = await derived.wrapTool('add');
    expect(add.capabilities).toEqual(['mcp.stdio_node']);
  });

  it("keeps the capabilities option's own capabilities and adds mcp.<serverName>", async () => {
    const withOption = new MCPToolAdapter(testServerStdio({ capabilities: ['files.write'] }));
    try {
      expect((await withOption.wrapTool('add')).capabilities).toEqual(['files.write', 'mcp.test']);
    } finally {
      await withOption.close();
    }
  });

  it("makes {'mcp.*': 'require_approval'} cover MCP tools: no approval handler, no call reaches the server", async () => {
    const agent = new Agent({
      card,
      policy: new CapabilityPolicy({ 'mcp.*': 'require_approval' }),
      tools,
    });
    const before = await serverCalls();
    const error = await agent.callTool('add', { a: 1, b: 2 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApprovalRequiredError);
    expect((error as Error).message).toContain('add');
    expect(await serverCalls()).toBe(before + 1);
  });

  it("runs the call once the approval handler approves under {'mcp.*': 'require_approval'}", async () => {
    const requests: string[] = [];
    const agent = new Agent({
      card,
      policy: new CapabilityPolicy({ 'mcp.*': 'require_approval' }),
      approvalHandler: (request) => {
        requests.push(...request.policyDecision.matchedCapabilities);
        return true;
      },
      tools,
    });
    expect(await agent.callTool('add', { a: 2, b: 5 })).toBe('7');
    expect(requests).toEqual(['mcp.test']);
  });

  it("makes {'*': 'deny'} deny MCP tools", async () => {
    const agent = new Agent({ card, policy: new CapabilityPolicy({ '*': 'deny' }), tools });
    const before = await serverCalls();
    const error = await agent.callTool('echo', { text: 'hi' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ActionDeniedError);
    expect((error as Error).message).toContain('mcp.test');
    expect(await serverCalls()).toBe(before + 1);
  });

  it('lets a rule for one server deny it while another rule allows the rest', async () => {
    const agent = new Agent({
      card,
      policy: new CapabilityPolicy({ 'mcp.*': 'allow', 'mcp.test': 'deny' }),
      tools,
    });
    await expect(agent.callTool('add', { a: 1, b: 1 })).rejects.toBeInstanceOf(ActionDeniedError);
  });
});
