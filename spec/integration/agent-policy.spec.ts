import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { Agent } from '../../lib/agents/agent';
import { ActionDeniedError } from '../../lib/errors/action-denied-error';
import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { ApprovalDecision } from '../../lib/policy/approval-decision';
import type { ApprovalRequest } from '../../lib/policy/approval-request';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { RunAction } from '../../lib/runtime/run-action';
import { RunContext } from '../../lib/runtime/run-context';
import { calculator } from '../../lib/builtins/calculator/calculator';

// The seed's scenarios, end to end through the Agent with real tools (a local HTTP server stands in for the web).
describe('Agent policy and approval (integration)', () => {
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      response.setHeader('content-type', 'text/plain');
      response.end(`page ${request.url}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  function researcher(): { agent: Agent; writes: string[] } {
    const agent = new Agent({
      card: {
        name: 'researcher',
        description: 'Finds and summarizes public information',
        url: 'runtime://researcher',
      },
      transport: 'runtime',
      policy: new CapabilityPolicy({ 'network.read': 'allow' }, { defaultEffect: 'deny' }),
    });
    agent.addTool(calculator());
    agent.tool(
      {
        name: 'read_page',
        description: 'Read a page',
        inputSchema: { path: 'str' },
        capabilities: ['network.read'],
      },
      async (args: Record<string, unknown>, context: RunContext) => {
        const response = await fetch(`${baseUrl}${String(args.path)}`, { signal: context.signal });
        return response.text();
      },
    );
    const writes: string[] = [];
    agent.tool(
      {
        name: 'save_note',
        description: 'Save a note',
        inputSchema: { text: 'str' },
        capabilities: ['records.write'],
      },
      (args: Record<string, unknown>) => {
        writes.push(String(args.text));
        return 'saved';
      },
    );
    return { agent, writes };
  }

  it('lets the researcher read the network and compute, and denies everything else by default', async () => {
    const { agent, writes } = researcher();
    await expect(agent.callTool('read_page', { path: '/greece' })).resolves.toBe('page /greece');
    await expect(agent.callTool('calculator', { expression: '(18 + 6) / 3' })).resolves.toEqual({
      expression: '(18 + 6) / 3',
      result: 8,
    });
    await expect(agent.callTool('save_note', { text: 'x' })).rejects.toThrow(ActionDeniedError);
    await expect(agent.callTool('save_note', { text: 'x' })).rejects.toThrow(
      "Action 'save_note' denied: Denied capabilities: records.write",
    );
    expect(writes).toEqual([]);
  });

  it('runs records.write only after an approving handler, with the request id echoed', async () => {
    const requests: ApprovalRequest[] = [];
    const agent = new Agent({
      card: { name: 'publisher', description: 'Publishes', url: 'runtime://publisher' },
      policy: new CapabilityPolicy({ 'records.write': 'require_approval' }),
      approvalHandler: async (request) => {
        requests.push(request);
        return new ApprovalDecision({ approved: true, requestId: request.requestId });
      },
    });
    agent.tool(
      {
        name: 'publish_record',
        description: 'Publish one record',
        inputSchema: { record_id: 'str' },
        capabilities: ['records.write'],
      },
      async (args: Record<string, unknown>) => ({ record_id: args.record_id, status: 'published' }),
    );
    const context = new RunContext({ runId: 'run-publish' });
    await expect(agent.callToolInContext('publish_record', context, { record_id: 'r-7' })).resolves.toEqual({
      record_id: 'r-7',
      status: 'published',
    });
    expect(requests).toHaveLength(1);
    expect(requests[0].runId).toBe('run-publish');
    expect(requests[0].policyDecision.effect).toBe('require_approval');
    expect(requests[0].action.payload).toEqual({ arguments: { record_id: 'r-7' } });
  });

  it('never runs records.write when the handler denies', async () => {
    const published: string[] = [];
    const agent = new Agent({
      card: { name: 'publisher', description: 'Publishes', url: 'runtime://publisher' },
      policy: new CapabilityPolicy({ 'records.write': 'require_approval' }),
      approvalHandler: (request) =>
        new ApprovalDecision({
          approved: false,
          requestId: request.requestId,
          reason: 'Records are frozen',
          decidedBy: 'ops',
        }),
    });
    agent.tool(
      {
        name: 'publish_record',
        description: 'Publish one record',
        inputSchema: { record_id: 'str' },
        capabilities: ['records.write'],
      },
      (args: Record<string, unknown>) => {
        published.push(String(args.record_id));
        return 'published';
      },
    );
    const error = (await agent
      .callTool('publish_record', { record_id: 'r-7' })
      .catch((caught: unknown) => caught)) as ActionDeniedError;
    expect(error).toBeInstanceOf(ActionDeniedError);
    expect(error.message).toBe("Action 'publish_record' denied: Records are frozen");
    expect(published).toEqual([]);
  });

  it('always allows a tool with no capability, whatever the policy', async () => {
    const agent = new Agent({
      card: { name: 'locked', description: 'Locked down', url: 'runtime://locked' },
      policy: new CapabilityPolicy({ '*': 'deny' }, { defaultEffect: 'deny' }),
      tools: [calculator()],
    });
    await expect(
      agent.callToolInContext('calculator', new RunContext({ permissions: { default: 'deny' } }), {
        expression: '2 ** 10',
      }),
    ).resolves.toEqual({
      expression: '2 ** 10',
      result: 1024,
    });
  });

  it('lets run permissions narrow what the agent allows, never widen it', async () => {
    const { agent } = researcher();
    const offline = new RunContext({ permissions: { 'network.*': 'deny' } });
    await expect(agent.callToolInContext('read_page', offline, { path: '/x' })).rejects.toThrow(
      ActionDeniedError,
    );
    const greedy = new RunContext({ permissions: { 'records.write': 'allow', '*': 'allow' } });
    await expect(agent.callToolInContext('save_note', greedy, { text: 'x' })).rejects.toThrow(
      ActionDeniedError,
    );
    await expect(agent.callToolInContext('read_page', greedy, { path: '/ok' })).resolves.toBe('page /ok');
  });

  it('applies wildcard precedence: exact, then longest prefix, then *', async () => {
    const agent = new Agent({
      card: { name: 'files', description: 'Files', url: 'runtime://files' },
      policy: new CapabilityPolicy({
        'fs.*': 'deny',
        'fs.read.*': 'allow',
        'fs.read.secrets': 'deny',
        '*': 'allow',
      }),
    });
    for (const capability of ['fs.read.docs', 'fs.read.secrets', 'fs.write', 'net.read']) {
      agent.tool(
        { name: capability.replace(/\./g, '_'), description: capability, capabilities: [capability] },
        () => capability,
      );
    }
    const outcomes: Record<string, string> = {};
    for (const name of ['fs_read_docs', 'fs_read_secrets', 'fs_write', 'net_read']) {
      outcomes[name] = await agent.callTool(name).then(
        () => 'allow',
        (error: Error) => error.name,
      );
    }
    expect(outcomes).toEqual({
      fs_read_docs: 'allow',
      fs_read_secrets: 'ActionDeniedError',
      fs_write: 'ActionDeniedError',
      net_read: 'allow',
    });
  });

  it('refuses every call in a canceled context, and the capability policy denies it', async () => {
    const { agent } = researcher();
    const context = new RunContext();
    context.cancel('user closed the tab');
    await expect(agent.callToolInContext('calculator', context, { expression: '1+1' })).rejects.toThrow(
      ToolCancelledError,
    );
    await expect(agent.callToolInContext('calculator', context, { expression: '1+1' })).rejects.toThrow(
      '(user closed the tab)',
    );
    const decision = agent.policy.evaluate(new RunAction({ kind: 'tool.call', name: 'x' }), context);
    expect(decision).toMatchObject({
      effect: 'deny',
      reason: 'user closed the tab',
      metadata: { canceled: true },
    });
  });
});
