import 'reflect-metadata';
import { Agent } from '../../lib/agents/agent';
import { ApprovalRequiredError } from '../../lib/errors/approval-required-error';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { MCPToolAdapter } from '../../lib/mcp/client';
import { calculator } from '../../lib/builtins/calculator/calculator';
import { Param } from '../../lib/tools/decorators/param.decorator';
import { Tool } from '../../lib/tools/decorators/tool.decorator';
import { NativeTool } from '../../lib/tools/native-tool';
import { testServerStdio } from '../fixtures/mcp/mcp-test-servers';

const card = { name: 'mailer', description: 'Sends mail', url: 'runtime://mailer' };

/** The local, approval-guarded tool an MCP server's `echo` must not take over. */
function localEcho(): NativeTool {
  return new NativeTool({
    name: 'echo',
    description: 'Echoes a message, after approval',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    capabilities: ['email.send'],
    func: (args) => `local: ${String(args.text)}`,
  });
}

function guardedAgent(): Agent {
  return new Agent({ card, policy: new CapabilityPolicy({ 'email.send': 'require_approval' }) });
}

class CalculatorLookalike {
  @Tool({ name: 'calculator', description: 'Not the built-in' })
  compute(@Param('expression') expression: string): string {
    return expression;
  }
}

describe('Agent', () => {
  describe('addTool with tools from several sources', () => {
    const adapter = new MCPToolAdapter(testServerStdio({ timeoutMs: 10_000 }));
    const other = new MCPToolAdapter(testServerStdio({ timeoutMs: 10_000, serverName: 'other' }));
    const prefixed = new MCPToolAdapter(testServerStdio({ timeoutMs: 10_000, namePrefix: 'test_' }));
    afterAll(async () => {
      await Promise.all([adapter.close(), other.close(), prefixed.close()]);
    });

    async function remoteEcho(from: MCPToolAdapter = adapter): Promise<NativeTool> {
      return from.wrapTool('echo');
    }

    it('refuses an MCP tool whose name a local tool holds, naming both and suggesting namePrefix', async () => {
      const agent = guardedAgent();
      const local = agent.addTool(localEcho());
      const remote = await remoteEcho();
      const add = () => agent.addTool(remote);
      expect(add).toThrow(ToolDefinitionError);
      expect(add).toThrow(
        "Cannot register a tool of MCP server 'test' named 'echo': the name is taken by a native tool, and a tool from another source never silently replaces it",
      );
      expect(add).toThrow(
        "with a namePrefix (an MCP adapter's namePrefix option, or @Toolset({ namePrefix }))",
      );
      expect(add).toThrow('or pass { replace: true } to replace it on purpose.');
      // The call still takes the local, approval-guarded path.
      expect(agent.getTool('echo')).toBe(local);
      await expect(agent.callTool('echo', { text: 'hi' })).rejects.toBeInstanceOf(ApprovalRequiredError);
    });

    it('refuses a local tool whose name an MCP tool holds', async () => {
      const agent = guardedAgent();
      agent.addTool(await remoteEcho());
      expect(() => agent.addTool(localEcho())).toThrow(
        "Cannot register a native tool named 'echo': the name is taken by a tool of MCP server 'test'",
      );
    });

    it('refuses a tool of another MCP server with the same name', async () => {
      const agent = guardedAgent();
      agent.addTool(await remoteEcho());
      const fromOther = await remoteEcho(other);
      expect(() => agent.addTool(fromOther)).toThrow(
        "Cannot register a tool of MCP server 'other' named 'echo': the name is taken by a tool of MCP server 'test'",
      );
    });

    it('replaces a tool listed again by the same server', async () => {
      const agent = guardedAgent();
      agent.addTool(await remoteEcho());
      const relisted = (await adapter.getTools()).find((tool) => tool.name === 'echo') as NativeTool;
      expect(agent.addTool(relisted)).toBe(relisted);
      expect(agent.getTool('echo')).toBe(relisted);
    });

    it('keeps both tools when the MCP adapter has a namePrefix', async () => {
      const agent = guardedAgent();
      agent.addTool(localEcho());
      agent.addTool(await prefixed.wrapTool('echo'));
      expect([...agent.tools.keys()].sort()).toEqual(['echo', 'test_echo']);
      await expect(agent.callTool('test_echo', { text: 'hi' })).resolves.toBe('hi');
    });

    it('replaces a tool of another source when asked with { replace: true }', async () => {
      const agent = guardedAgent();
      agent.addTool(localEcho());
      const remote = await remoteEcho();
      expect(agent.addTool(remote, { replace: true })).toBe(remote);
      expect(agent.getTool('echo')).toBe(remote);
      expect(agent.card.skills.map((skill) => skill.id)).toEqual(['echo']);
    });

    it('refuses two tools of one name in the constructor, even from one source', async () => {
      const remote = await remoteEcho();
      const build = () => new Agent({ card, tools: [localEcho(), remote] });
      expect(build).toThrow(ToolDefinitionError);
      expect(build).toThrow(
        "new Agent() was given two tools named 'echo' (tools[0] and tools[1]); neither replaces the other. Rename one, or give the MCP adapter or @Toolset a namePrefix.",
      );
      expect(() => new Agent({ card, tools: [localEcho(), localEcho()] })).toThrow(
        "new Agent() was given two tools named 'echo' (tools[0] and tools[1])",
      );
    });
  });

  describe('addTool and addToolset with built-in and native tools', () => {
    it('replaces a built-in with a fresh built-in, and a native tool with a native one', () => {
      const agent = new Agent({ card, tools: [calculator()] });
      const fresh = calculator();
      expect(agent.addTool(fresh)).toBe(fresh);
      agent.tool({ name: 'ping', description: 'first' }, () => 'one');
      agent.tool({ name: 'ping', description: 'second' }, () => 'two');
      expect(agent.getTool('ping')?.description).toBe('second');
    });

    it('refuses a toolset method named like a built-in, and takes it with { replace: true }', () => {
      const agent = new Agent({ card, tools: [calculator()] });
      const add = () => agent.addToolset(new CalculatorLookalike());
      expect(add).toThrow(ToolDefinitionError);
      expect(add).toThrow(
        "Cannot register a native tool named 'calculator': the name is taken by a built-in tool",
      );
      expect(agent.getTool('calculator')?.description).not.toBe('Not the built-in');
      agent.addToolset(new CalculatorLookalike(), { replace: true });
      expect(agent.getTool('calculator')?.description).toBe('Not the built-in');
    });

    it('refuses a toolset that repeats a tool given in the constructor', () => {
      const build = () => new Agent({ card, tools: [calculator()], toolsets: [new CalculatorLookalike()] });
      expect(build).toThrow(
        "new Agent() was given two tools named 'calculator' (tools[0] and toolsets[0] (CalculatorLookalike))",
      );
    });
  });
});
