import 'reflect-metadata';
import { Agent } from '../../lib/agents/agent';
import { ToolRuntimeError } from '../../lib/errors/tool-runtime-error';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import type { ApprovalRequest } from '../../lib/policy/approval-request';
import { RunContext } from '../../lib/runtime/run-context';
import type { AgentServerHandle } from '../../lib/agents/agent-server-options';
import { startAgentServer } from '../../lib/server/start-agent-server';
import { MCPToolAdapter } from '../../lib/mcp/client/mcp-tool-adapter';
import { calculator } from '../../lib/builtins/calculator/calculator';
import { NativeTool } from '../../lib/tools/native-tool';
import { BookingStore, TravelTools } from '../fixtures/toolsets/travel-tools';
import { createFakeAgent } from '../fixtures/serve/fake-agent';

// A real Agent served over HTTP: native, built-in and MCP-proxied tools, called by our own MCPToolAdapter,
// with the agent's CapabilityPolicy, approval handler and budget applied on the served path.
describe('Agent served over MCP (integration)', () => {
  let upstream: AgentServerHandle;
  let upstreamAgent: ReturnType<typeof createFakeAgent>;
  let proxy: MCPToolAdapter;
  let served: AgentServerHandle;
  let agent: Agent;
  let bookings: BookingStore;
  const approvals: ApprovalRequest[] = [];
  const aborted: string[] = [];

  beforeAll(async () => {
    upstreamAgent = createFakeAgent();
    upstream = await startAgentServer(upstreamAgent, { token: 'upstream-token' });
    proxy = new MCPToolAdapter({
      transport: 'http',
      url: upstream.mcpUrl,
      headers: { authorization: 'Bearer upstream-token' },
    });
    bookings = new BookingStore();
    agent = new Agent({
      card: { name: 'travel-agent', description: 'Books trips', url: 'http://127.0.0.1:0' },
      policy: new CapabilityPolicy({ 'records.write': 'require_approval', 'records.delete': 'deny' }),
      approvalHandler: (request) => {
        approvals.push(request);
        const booking = (request.action.payload.arguments as { booking?: { guests?: number } }).booking;
        return (booking?.guests ?? 0) <= 4;
      },
    });
    agent.addToolset(new TravelTools(bookings));
    agent.addTool(calculator());
    agent.addTool(
      new NativeTool({
        name: 'wait',
        description: 'Waits until canceled',
        inputSchema: {},
        func: (_args, context) =>
          new Promise((_resolve, reject) => {
            context.signal.addEventListener('abort', () => {
              aborted.push('wait');
              reject(new ToolRuntimeError('stopped'));
            });
          }),
      }),
    );
    for (const tool of await proxy.getTools()) {
      if (tool.name === 'echo' || tool.name === 'delete_records') agent.addTool(tool);
    }
    served = await startAgentServer(agent, {
      buildContext: (info) =>
        new RunContext({ signal: info.signal, sessionId: info.sessionId, budget: { maxToolCalls: 1 } }),
    });
  }, 60_000);

  afterAll(async () => {
    await served?.close();
    await proxy?.close();
    await upstream?.close();
  });

  function client() {
    return new MCPToolAdapter({ transport: 'http', url: served.mcpUrl });
  }

  it('serves the card with a skill per tool', async () => {
    const response = await fetch(served.cardUrl);
    const card = (await response.json()) as { name: string; url: string; skills: { id: string }[] };
    expect(card.name).toBe('travel-agent');
    expect(card.url).toBe('http://127.0.0.1:0'.replace(':0', `:${served.port}`));
    expect(card.skills.map((skill) => skill.id).sort()).toEqual([...agent.tools.keys()].sort());
    expect(card.skills.map((skill) => skill.id)).toEqual(
      expect.arrayContaining(['add', 'book_hotel', 'calculator', 'echo']),
    );
  });

  it('calls native, built-in and MCP-proxied tools through MCPToolAdapter', async () => {
    const adapter = client();
    try {
      const names = (await adapter.getTools()).map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining(['add', 'book_hotel', 'calculator', 'echo', 'delete_records']),
      );
      expect(await adapter.getCallable('add')({ a: 2, b: 3 })).toBe(5);
      expect(await adapter.getCallable('calculator')({ expression: '2**10' })).toEqual({
        expression: '2**10',
        result: 1024,
      });
      expect(await adapter.getCallable('echo')({ text: 'via two servers' })).toBe('via two servers');
      expect(upstreamAgent.log.executed).toContain('echo');
    } finally {
      await adapter.close();
    }
  });

  it("applies the agent's policy: a denied capability never runs, remotely or upstream", async () => {
    const adapter = client();
    try {
      const before = upstreamAgent.log.executed.length;
      const error = await adapter
        .getCallable('delete_records')({})
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect((error as Error).message).toMatch(/denied/i);
      expect(upstreamAgent.log.executed.length).toBe(before);
    } finally {
      await adapter.close();
    }
  });

  it('asks the approval handler on the served path: approved runs, rejected does not', async () => {
    const adapter = client();
    try {
      const confirmation = await adapter.getCallable('book_hotel')({
        booking: { location: 'Athens', guests: 2 },
      });
      expect(confirmation).toEqual({ id: 'BK-1', guests: 2 });
      const rejected = await adapter
        .getCallable('book_hotel')({ booking: { location: 'Oslo', guests: 9 } })
        .catch((caught: unknown) => caught);
      expect(rejected).toBeInstanceOf(ToolRuntimeError);
      expect((rejected as Error).message).toMatch(/denied|rejected|not approved/i);
      expect(bookings.saved).toHaveLength(1);
      expect(approvals.map((request) => request.action.name)).toEqual(['book_hotel', 'book_hotel']);
    } finally {
      await adapter.close();
    }
  });

  it('reports invalid arguments from the agent as an error result without running the tool', async () => {
    const adapter = client();
    try {
      const tool = await adapter.wrapTool('add');
      // Skip the adapter's own validation to show the served agent validates too.
      const raw = await (tool as unknown as { invoke(args: Record<string, unknown>): Promise<unknown> })
        .invoke({ a: 'x', b: 1 })
        .catch((caught: unknown) => caught);
      expect(raw).toBeInstanceOf(ToolRuntimeError);
      expect((raw as Error).message).toMatch(
        /Invalid arguments for tool 'add': a: must be an integer, got the string "x"/,
      );
    } finally {
      await adapter.close();
    }
  });

  it("aborts the agent's tool when the remote caller cancels", async () => {
    const adapter = client();
    try {
      const controller = new AbortController();
      const pending = adapter
        .getCallable('wait')({}, { signal: controller.signal })
        .catch((caught: unknown) => caught);
      await new Promise((resolve) => setTimeout(resolve, 200));
      controller.abort();
      expect(await pending).toBeInstanceOf(Error);
      const started = Date.now();
      while (!aborted.includes('wait') && Date.now() - started < 5000)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(aborted).toEqual(['wait']);
    } finally {
      await adapter.close();
    }
  });

  it('counts calls against the budget of the context built for the request', async () => {
    const strict = await startAgentServer(agent, {
      buildContext: (info) => new RunContext({ signal: info.signal, budget: { maxToolCalls: 0 } }),
    });
    const adapter = new MCPToolAdapter({ transport: 'http', url: strict.mcpUrl });
    try {
      const error = await adapter
        .getCallable('add')({ a: 1, b: 1 })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect((error as Error).message).toMatch(/budget|maxToolCalls/i);
    } finally {
      await adapter.close();
      await strict.close();
    }
  });
});
