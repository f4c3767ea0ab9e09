import 'reflect-metadata';
import { Agent } from '../../lib/agents/agent';
import { ApprovalDecision } from '../../lib/policy/approval-decision';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { RunContext } from '../../lib/runtime/run-context';

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('Agent under concurrency (integration)', () => {
  it('decides 100 concurrent mixed calls correctly, with no cross-talk between contexts', async () => {
    const approvals: string[] = [];
    const agent = new Agent({
      card: { name: 'busy', description: 'Busy', url: 'runtime://busy' },
      policy: new CapabilityPolicy({
        'data.read': 'allow',
        'data.delete': 'deny',
        'data.write': 'require_approval',
      }),
      // Approves only even request numbers, after a delay that differs per call, so answers arrive out of order.
      approvalHandler: async (request, context) => {
        await pause((Number(context.metadata.index) * 7) % 23);
        approvals.push(request.runId);
        const approved = Number(context.metadata.index) % 2 === 0;
        return new ApprovalDecision({
          approved,
          requestId: request.requestId,
          reason: approved ? undefined : `odd call ${String(context.metadata.index)}`,
        });
      },
    });
    const ran: string[] = [];
    const kinds = ['read', 'delete', 'write'] as const;
    for (const kind of kinds) {
      agent.tool(
        {
          name: `${kind}_item`,
          description: kind,
          inputSchema: { index: 'int' },
          capabilities: [`data.${kind}`],
        },
        async (args: Record<string, unknown>, context: RunContext) => {
          await pause(Number(args.index) % 5);
          ran.push(`${kind}:${String(args.index)}`);
          return { index: args.index, runId: context.runId, kind };
        },
      );
    }
    const calls = Array.from({ length: 100 }, (_, index) => {
      const kind = kinds[index % 3];
      const context = new RunContext({
        runId: `run-${index}`,
        metadata: { index },
        budget: { maxToolCalls: 1 },
      });
      return agent.callToolInContext(`${kind}_item`, context, { index }).then(
        (result) => ({ index, kind, outcome: 'ok' as const, result }),
        (error: Error) => ({ index, kind, outcome: error.name, result: error.message }),
      );
    });
    const results = await Promise.all(calls);
    for (const { index, kind, outcome, result } of results) {
      if (kind === 'read')
        expect({ index, outcome, result }).toEqual({
          index,
          outcome: 'ok',
          result: { index, runId: `run-${index}`, kind },
        });
      if (kind === 'delete') expect({ index, outcome }).toEqual({ index, outcome: 'ActionDeniedError' });
      if (kind === 'write' && index % 2 === 0)
        expect({ index, outcome, result }).toEqual({
          index,
          outcome: 'ok',
          result: { index, runId: `run-${index}`, kind },
        });
      if (kind === 'write' && index % 2 === 1)
        expect({ index, outcome, result }).toEqual({
          index,
          outcome: 'ActionDeniedError',
          result: `Action 'write_item' denied: odd call ${index}`,
        });
    }
    const expectedRuns = results
      .filter((entry) => entry.outcome === 'ok')
      .map((entry) => `${entry.kind}:${entry.index}`);
    expect([...ran].sort()).toEqual([...expectedRuns].sort());
    expect(approvals.sort()).toEqual(
      results
        .filter((entry) => entry.kind === 'write')
        .map((entry) => `run-${entry.index}`)
        .sort(),
    );
  });

  it('counts a shared budget exactly across 100 concurrent calls', async () => {
    const agent = new Agent({
      card: { name: 'budgeted', description: 'Budgeted', url: 'runtime://budgeted' },
      approvalHandler: async () => true,
    });
    let runs = 0;
    agent.tool({ name: 'tick', description: 'Tick', capabilities: ['clock.tick'] }, async () => {
      await pause(1);
      runs += 1;
      return runs;
    });
    const shared = new RunContext({ budget: { maxToolCalls: 37 } });
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        agent.callToolInContext('tick', index % 2 ? shared : shared.child({ runId: `child-${index}` })).then(
          () => 'ran',
          (error: Error) => error.name,
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'ran')).toHaveLength(37);
    expect(outcomes.filter((outcome) => outcome === 'BudgetExceededError')).toHaveLength(63);
    expect(runs).toBe(37);
    expect(shared.usage.toolCalls).toBe(37);
  });

  it('counts exactly when approvals are async and the budget is checked again after them', async () => {
    const agent = new Agent({
      card: { name: 'approved', description: 'Approved', url: 'runtime://approved' },
      policy: new CapabilityPolicy({ '*': 'ask' }),
      approvalHandler: async (request) => {
        await pause(3);
        return new ApprovalDecision({ approved: true, requestId: request.requestId });
      },
    });
    let runs = 0;
    agent.tool({ name: 'spend', description: 'Spend', capabilities: ['money.spend'] }, () => (runs += 1));
    const context = new RunContext({ budget: { maxToolCalls: 10 } });
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, () =>
        agent.callToolInContext('spend', context).then(
          () => 'ran',
          (error: Error) => error.name,
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'ran')).toHaveLength(10);
    expect(runs).toBe(10);
    expect(context.usage.toolCalls).toBe(10);
  });
});
