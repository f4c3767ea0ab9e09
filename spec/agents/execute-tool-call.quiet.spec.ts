import { Agent } from '../../lib/agents/agent';
import { ActionDeniedError } from '../../lib/errors/action-denied-error';
import { BudgetExceededError } from '../../lib/errors/budget-exceeded-error';
import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { ToolRuntimeError } from '../../lib/errors/tool-runtime-error';
import { ToolValidationError } from '../../lib/errors/tool-validation-error';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { PolicyDecision } from '../../lib/policy/policy-decision';
import type { RunAction } from '../../lib/runtime/run-action';
import { RunContext } from '../../lib/runtime/run-context';
import type { ToolCallOptions } from '../../lib/tools/base-tool';
import { NativeTool } from '../../lib/tools/native-tool';

const card = { name: 'quiet', description: 'Quiet call path', url: 'runtime://quiet' };
const schema = {
  type: 'object',
  properties: { a: { type: 'integer' }, b: { type: 'integer' } },
  required: ['a', 'b'],
  additionalProperties: false,
};

function agentWith(
  func: (args: Record<string, unknown>, context: RunContext) => unknown,
  policy?: CapabilityPolicy,
): Agent {
  const agent = new Agent({ card, policy });
  agent.addTool(new NativeTool({ name: 'add', description: 'Add two integers', inputSchema: schema, func }));
  return agent;
}

/** A policy that inherits from CapabilityPolicy but decides on its own: it must still be asked. */
class DenyingPolicy extends CapabilityPolicy {
  override evaluate(action: RunAction): PolicyDecision {
    return new PolicyDecision({ effect: 'deny', reason: `no ${action.name} today`, policyName: 'denying' });
  }
}

describe('executeToolCall', () => {
  describe('the quiet path (no listeners, no builder, no capabilities, plain CapabilityPolicy)', () => {
    it('runs the tool with validated, coerced arguments', async () => {
      const agent = agentWith((args) => (args.a as number) + (args.b as number));
      await expect(agent.callTool('add', { a: '2', b: 3 })).resolves.toBe(5);
    });

    it('rejects invalid arguments with ToolValidationError before the tool runs', async () => {
      const func = jest.fn();
      const agent = agentWith(func);
      await expect(agent.callTool('add', { a: 'two', b: 3 })).rejects.toThrow(ToolValidationError);
      await expect(agent.callTool('add', { a: 'two', b: 3 })).rejects.toThrow(/tool 'add'.*a: /s);
      expect(func).not.toHaveBeenCalled();
    });

    it('keeps the result on ToolCancelledError when the tool canceled its own context', async () => {
      const agent = agentWith((_args, context) => {
        context.cancel('the tool gave up');
        return 'done anyway';
      });
      const error = await agent.callTool('add', { a: 1, b: 2 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect(error).toMatchObject({ hasResult: true, result: 'done anyway', toolName: 'add' });
      expect((error as Error).message).toMatch(
        /was canceled \(the tool gave up\); tool 'add' finished after cancellation; its result is kept in error\.result/,
      );
    });

    it('reports the cancellation, with the tool error as cause, when the tool canceled its context and threw', async () => {
      const failure = new Error('aborted by itself');
      const agent = agentWith(async (_args, context) => {
        context.cancel('stop');
        throw failure;
      });
      const error = await agent.callTool('add', { a: 1, b: 2 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect(error).toMatchObject({ hasResult: false, cause: failure });
      expect((error as Error).message).toMatch(/tool 'add' was stopped before it finished/);
    });

    it('reports the cancellation when the tool canceled its context and threw synchronously', async () => {
      const failure = new Error('gave up at once');
      const agent = agentWith((_args, context) => {
        context.cancel('stop now');
        throw failure;
      });
      const call = agent.callTool('add', { a: 1, b: 2 });
      expect(call).toBeInstanceOf(Promise);
      const error = await call.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect(error).toMatchObject({ hasResult: false, cause: failure });
      expect((error as Error).message).toMatch(/\(stop now\); tool 'add' was stopped before it finished/);
    });

    it('returns a rejected promise, never a synchronous throw, for a tool that throws synchronously', async () => {
      const failure = new Error('sync failure');
      const agent = agentWith(() => {
        throw failure;
      });
      let call: Promise<unknown> | undefined;
      expect(() => (call = agent.callTool('add', { a: 1, b: 2 }))).not.toThrow();
      await expect(call).rejects.toBe(failure);
    });

    it('takes the value of a thenable that is not a native promise', async () => {
      const agent = agentWith((args) => ({
        then(resolve: (value: unknown) => void) {
          resolve((args.a as number) * 10);
        },
      }));
      await expect(agent.callTool('add', { a: 4, b: 0 })).resolves.toBe(40);
    });

    it('validates the output when the tool asks for it, for sync and async functions', async () => {
      for (const wrap of [(value: unknown) => value, (value: unknown) => Promise.resolve(value)]) {
        const agent = new Agent({ card });
        agent.addTool(
          new NativeTool({
            name: 'label',
            description: 'Returns a label',
            inputSchema: { text: 'str' },
            outputSchema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
            validateOutput: true,
            func: ({ text }) => wrap(text === 'bad' ? { label: 42 } : { label: text }),
          }),
        );
        await expect(agent.callTool('label', { text: 'ok' })).resolves.toEqual({ label: 'ok' });
        await expect(agent.callTool('label', { text: 'bad' })).rejects.toThrow(ToolRuntimeError);
        await expect(agent.callTool('label', { text: 'bad' })).rejects.toThrow(
          /result\.label: must be a string, got integer/,
        );
      }
    });

    it('keeps the way of running of a NativeTool subclass that overrides invoke()', async () => {
      class AuditedTool extends NativeTool {
        readonly runs: Record<string, unknown>[] = [];
        override invoke(validated: Record<string, unknown>, options?: ToolCallOptions): Promise<unknown> {
          this.runs.push(validated);
          return super.invoke(validated, options);
        }
      }
      const audited = new AuditedTool({
        name: 'add',
        description: 'Add two integers',
        inputSchema: schema,
        func: (args) => (args.a as number) + (args.b as number),
      });
      const agent = new Agent({ card });
      agent.addTool(audited);
      await expect(agent.callTool('add', { a: 1, b: 2 })).resolves.toBe(3);
      await expect(audited.call({ a: 3, b: 4 })).resolves.toBe(7);
      expect(audited.runs).toEqual([
        { a: 1, b: 2 },
        { a: 3, b: 4 },
      ]);
    });

    it('lets the tool error through unchanged', async () => {
      const failure = new Error('tool failed');
      const agent = agentWith(() => {
        throw failure;
      });
      await expect(agent.callTool('add', { a: 1, b: 2 })).rejects.toBe(failure);
    });

    it('still races a shared context: cancel() rejects a call whose tool never answers', async () => {
      const agent = agentWith(() => new Promise(() => undefined));
      const context = new RunContext();
      const call = agent.callToolInContext('add', context, { a: 1, b: 2 });
      context.cancel('stopped from outside');
      await expect(call).rejects.toThrow(ToolCancelledError);
      await expect(call).rejects.toThrow(/stopped from outside/);
      expect(context.usage.toolCalls).toBe(1);
    });

    it('still counts the budget and refuses the call past it', async () => {
      const agent = agentWith(() => 'ok');
      const context = new RunContext({ budget: { maxToolCalls: 1 } });
      await expect(agent.callToolInContext('add', context, { a: 1, b: 2 })).resolves.toBe('ok');
      await expect(agent.callToolInContext('add', context, { a: 1, b: 2 })).rejects.toThrow(
        BudgetExceededError,
      );
    });

    it('asks a CapabilityPolicy subclass, which may decide differently', async () => {
      const agent = agentWith(() => 'ran', new DenyingPolicy());
      await expect(agent.callTool('add', { a: 1, b: 2 })).rejects.toThrow(ActionDeniedError);
      await expect(agent.callTool('add', { a: 1, b: 2 })).rejects.toThrow(/no add today/);
    });
  });
});
