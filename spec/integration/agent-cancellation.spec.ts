import 'reflect-metadata';
import { Agent } from '../../lib/agents/agent';
import type { AgentEventMap } from '../../lib/agents/agent-events';
import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import type { Policy } from '../../lib/policy/policy';
import { PolicyDecision } from '../../lib/policy/policy-decision';
import { RunAction } from '../../lib/runtime/run-action';
import { RunContext } from '../../lib/runtime/run-context';
import { Context } from '../../lib/tools/decorators/context.decorator';
import { Param } from '../../lib/tools/decorators/param.decorator';
import { Tool } from '../../lib/tools/decorators/tool.decorator';

/** Real slow tools: one that ignores cancellation, one that honours its signal. */
class SlowTools {
  readonly committed: string[] = [];
  readonly sawAbort: boolean[] = [];

  @Tool({ name: 'stubborn_commit', description: 'Commits after 400 ms and ignores cancellation' })
  async stubbornCommit(@Param('id') id: string): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 400));
    this.committed.push(id);
    return `committed ${id}`;
  }

  @Tool({ name: 'polite_wait', description: 'Waits 5 s unless its signal aborts' })
  politeWait(@Param('ms', { type: 'integer' }) ms: number, @Context() context: RunContext): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve('waited'), ms);
      context.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        this.sawAbort.push(true);
        reject(context.signal.reason);
      });
    });
  }
}

function spyPolicy(): { policy: Policy; calls: number } {
  const state = {
    calls: 0,
    policy: {
      name: 'spy',
      evaluate: () => {
        state.calls += 1;
        return new PolicyDecision({ effect: 'allow' });
      },
    } as Policy,
  };
  return state;
}

describe('Agent cancellation (integration)', () => {
  it('rejects within 50 ms of an abort even though the tool ignores its signal, and reports the late result', async () => {
    const tools = new SlowTools();
    const agent = new Agent({
      card: { name: 'slow', description: 'Slow', url: 'runtime://slow' },
      toolsets: [tools],
    });
    const ends: AgentEventMap['tool-call-end'][] = [];
    agent.on('tool-call-end', (event) => {
      ends.push(event);
    });
    const controller = new AbortController();
    const context = new RunContext({ signal: controller.signal });
    const call = agent.callToolInContext('stubborn_commit', context, { id: 'order-1' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const abortedAt = performance.now();
    controller.abort(new Error('client disconnected'));
    const error = (await call.catch((caught: unknown) => caught)) as ToolCancelledError;
    const latency = performance.now() - abortedAt;
    expect(error).toBeInstanceOf(ToolCancelledError);
    expect(error.message).toContain(
      "(client disconnected); tool 'stubborn_commit' was stopped before it finished",
    );
    expect(latency).toBeLessThan(50);
    expect(tools.committed).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(tools.committed).toEqual(['order-1']);
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({
      toolName: 'stubborn_commit',
      result: 'committed order-1',
      completedAfterCancellation: true,
    });
  });

  it('rejects within 50 ms of context.cancel() and the tool sees its signal abort', async () => {
    const tools = new SlowTools();
    const agent = new Agent({
      card: { name: 'slow', description: 'Slow', url: 'runtime://slow' },
      toolsets: [tools],
    });
    const context = new RunContext();
    const call = agent.callToolInContext('polite_wait', context, { ms: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const canceledAt = performance.now();
    context.cancel('user pressed stop');
    await expect(call).rejects.toThrow(ToolCancelledError);
    expect(performance.now() - canceledAt).toBeLessThan(50);
    expect(tools.sawAbort).toEqual([true]);
  });

  it('never asks the policy, runs the builder or the tool when aborted before authorization', async () => {
    const tools = new SlowTools();
    const spy = spyPolicy();
    const agent = new Agent({
      card: { name: 'slow', description: 'Slow', url: 'runtime://slow' },
      policy: spy.policy,
      toolsets: [tools],
    });
    const controller = new AbortController();
    controller.abort('too late');
    const context = new RunContext({ signal: controller.signal });
    const errors: AgentEventMap['tool-call-error'][] = [];
    agent.on('tool-call-error', (event) => {
      errors.push(event);
    });
    await expect(agent.callToolInContext('stubborn_commit', context, { id: 'x' })).rejects.toThrow(
      ToolCancelledError,
    );
    expect(spy.calls).toBe(0);
    expect(errors[0].outcome).toBe('canceled');
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(tools.committed).toEqual([]);
  });

  it('stops between an async action builder and the policy when canceled meanwhile', async () => {
    const spy = spyPolicy();
    const agent = new Agent({
      card: { name: 'slow', description: 'Slow', url: 'runtime://slow' },
      policy: spy.policy,
    });
    const context = new RunContext();
    const func = jest.fn();
    agent.tool(
      {
        name: 'preview_then_send',
        description: 'Builds a slow preview',
        actionBuilder: async (args) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          context.cancel('canceled while previewing');
          return new RunAction({
            kind: 'tool.call',
            name: 'preview_then_send',
            payload: { arguments: args },
          });
        },
      },
      func,
    );
    await expect(agent.callToolInContext('preview_then_send', context)).rejects.toThrow(
      '(canceled while previewing)',
    );
    expect(spy.calls).toBe(0);
    expect(func).not.toHaveBeenCalled();
  });

  it('cancels a run whose maxRuntimeSeconds passes during a slow tool', async () => {
    const agent = new Agent({
      card: { name: 'slow', description: 'Slow', url: 'runtime://slow' },
      toolsets: [new SlowTools()],
    });
    const context = new RunContext({ budget: { maxRuntimeSeconds: 0.05 } });
    await expect(agent.callToolInContext('stubborn_commit', context, { id: 'late' })).rejects.toThrow(
      'budget.maxRuntimeSeconds (0.05) elapsed',
    );
  });
});
