import { Agent } from '../../lib/agents/agent';
import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { ScriptedLLM } from '../../lib/llm/scripted-llm';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { countAbortListeners } from '../../lib/runtime/on-abort';
import { RunContext } from '../../lib/runtime/run-context';
import { NativeTool } from '../../lib/tools/native-tool';

const card = { name: 'self-cancel', description: 'Tools that cancel their own run', url: 'runtime://self' };
const schema = {
  type: 'object',
  properties: { a: { type: 'integer' } },
  required: ['a'],
  additionalProperties: false,
};

type ToolFunction = (args: Record<string, unknown>, context: RunContext) => unknown;

/** The ways an agent can run the same tool: the quiet path, the observed path, a tool with capabilities. */
const AGENT_KINDS: readonly [string, (func: ToolFunction) => Agent][] = [
  ['the quiet path', (func) => agentWith(func)],
  ['the observed path (a listener)', (func) => agentWith(func).on('tool-call-start', () => undefined)],
  [
    'a tool with capabilities (an action for the policy)',
    (func) =>
      agentWith(func, {
        capabilities: ['demo.run'],
        policy: new CapabilityPolicy({ 'demo.run': 'allow' }),
      }),
  ],
];

function agentWith(
  func: ToolFunction,
  options: { capabilities?: string[]; policy?: CapabilityPolicy } = {},
): Agent {
  const agent = new Agent({ card, policy: options.policy });
  agent.addTool(
    new NativeTool({
      name: 'hang',
      description: 'Cancels its run, then never answers',
      inputSchema: schema,
      capabilities: options.capabilities,
      func,
    }),
  );
  return agent;
}

/** Never settles. */
function forever(): Promise<never> {
  return new Promise<never>(() => undefined);
}

/** Cancels its own context at once, then never answers. */
const cancelThenHang: ToolFunction = (_args, context) => {
  context.cancel('the tool gave up');
  return forever();
};

/** Starts, lets a macrotask pass, cancels its own context, then never answers. */
const cancelLaterThenHang: ToolFunction = async (_args, context) => {
  await new Promise((resolve) => setImmediate(resolve));
  context.cancel('the tool gave up later');
  return forever();
};

/**
 * How the call settled, or 'still pending' when it had not settled after a generous while (a liveness check:
 * a hanging call fails the test instead of timing it out; no speed is asserted).
 */
async function outcomeOf(call: Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const pending = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('still pending'), 2000);
  });
  try {
    return await Promise.race([
      call.then(
        (value) => ({ resolved: value }),
        (error: unknown) => error,
      ),
      pending,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function expectStoppedByItself(error: unknown, reason: string): void {
  expect(error).toBeInstanceOf(ToolCancelledError);
  expect(error).toMatchObject({ toolName: 'hang', reason, hasResult: false });
  expect((error as Error).message).toMatch(
    new RegExp(`^Run \\S+ was canceled \\(${reason}\\); tool 'hang' was stopped before it finished\\.$`),
  );
}

describe('executeToolCall', () => {
  describe('a tool that cancels its own context and never settles', () => {
    describe.each(AGENT_KINDS)('through %s', (_kind, makeAgent) => {
      it('rejects agent.callTool with ToolCancelledError when the tool cancels before returning', async () => {
        const agent = makeAgent(cancelThenHang);
        expectStoppedByItself(await outcomeOf(agent.callTool('hang', { a: 1 })), 'the tool gave up');
      });

      it('rejects agent.callTool with ToolCancelledError when the tool cancels after it started waiting', async () => {
        const agent = makeAgent(cancelLaterThenHang);
        expectStoppedByItself(await outcomeOf(agent.callTool('hang', { a: 1 })), 'the tool gave up later');
      });

      it('rejects callToolInContext with a plain context', async () => {
        const agent = makeAgent(cancelLaterThenHang);
        const context = new RunContext();
        expectStoppedByItself(
          await outcomeOf(agent.callToolInContext('hang', context, { a: 1 })),
          'the tool gave up later',
        );
        expect(context.canceled).toBe(true);
        expect(context.usage.toolCalls).toBe(1);
      });

      it('rejects callToolInContext with a context that has a deadline and a budget', async () => {
        const agent = makeAgent(cancelThenHang);
        const context = new RunContext({ budget: { maxRuntimeSeconds: 3600, maxToolCalls: 5 } });
        expectStoppedByItself(
          await outcomeOf(agent.callToolInContext('hang', context, { a: 1 })),
          'the tool gave up',
        );
      });

      it('rejects callToolInContext with a child context, and leaves its parent running', async () => {
        const agent = makeAgent(cancelLaterThenHang);
        const parent = new RunContext();
        const child = parent.child();
        expectStoppedByItself(
          await outcomeOf(agent.callToolInContext('hang', child, { a: 1 })),
          'the tool gave up later',
        );
        expect(parent.canceled).toBe(false);
      });

      it('rejects callToolInContext with a context on an outside signal, and leaves no listener on it', async () => {
        const agent = makeAgent(cancelLaterThenHang);
        const controller = new AbortController();
        const context = new RunContext({ signal: controller.signal });
        expectStoppedByItself(
          await outcomeOf(agent.callToolInContext('hang', context, { a: 1 })),
          'the tool gave up later',
        );
        expect(countAbortListeners(controller.signal)).toBe(0);
      });
    });
  });

  describe('a tool that cancels the run of the model loop and never settles', () => {
    it.each([
      ['its own context', undefined],
      ['a given context', new RunContext()],
    ])('rejects agent.infer with ToolCancelledError in %s', async (_which, context) => {
      const agent = agentWith(cancelLaterThenHang);
      const llm = new ScriptedLLM([
        { toolCalls: [{ name: 'hang', arguments: { a: 1 } }] },
        { text: 'never asked: the run was canceled' },
      ]);
      const error = await outcomeOf(agent.infer('call hang', { llm, context }));
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect((error as Error).message).toMatch(/was canceled \(the tool gave up later\)/);
      expect(llm.calls).toHaveLength(1);
    });
  });

  describe('a tool whose context is canceled by someone else while it never settles', () => {
    it('rejects when the caller cancels the context', async () => {
      const agent = agentWith(() => forever());
      const context = new RunContext();
      const call = agent.callToolInContext('hang', context, { a: 1 });
      setImmediate(() => context.cancel('stopped from outside'));
      const error = await outcomeOf(call);
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect((error as Error).message).toMatch(
        /\(stopped from outside\); tool 'hang' was stopped before it finished/,
      );
    });

    it('rejects when another tool cancels the shared context', async () => {
      const context = new RunContext();
      const agent = agentWith(() => forever());
      agent.addTool(
        new NativeTool({
          name: 'stop',
          description: 'Cancels the run',
          inputSchema: schema,
          func: (_args, own) => {
            own.cancel('another tool stopped the run');
            return 'stopped';
          },
        }),
      );
      const call = agent.callToolInContext('hang', context, { a: 1 });
      const stop = outcomeOf(agent.callToolInContext('stop', context, { a: 1 }));
      const error = await outcomeOf(call);
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect((error as Error).message).toMatch(/\(another tool stopped the run\); tool 'hang' was stopped/);
      // The tool that canceled the run finished after doing so: its result is kept on its own error.
      expect(await stop).toMatchObject({ hasResult: true, result: 'stopped' });
    });

    it('rejects a call in a child context when its parent is canceled', async () => {
      const agent = agentWith(() => forever());
      const parent = new RunContext();
      const call = agent.callToolInContext('hang', parent.child(), { a: 1 });
      setImmediate(() => parent.cancel('the whole run stopped'));
      const error = await outcomeOf(call);
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect((error as Error).message).toMatch(/\(the whole run stopped\)/);
    });

    it('rejects when the outside signal aborts, and leaves no listener on the signal', async () => {
      const agent = agentWith(() => forever());
      const controller = new AbortController();
      const call = agent.callToolInContext('hang', new RunContext({ signal: controller.signal }), { a: 1 });
      setImmediate(() => controller.abort(new Error('client went away')));
      const error = await outcomeOf(call);
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect((error as Error).message).toMatch(/\(client went away\)/);
      expect(countAbortListeners(controller.signal)).toBe(0);
    });
  });

  describe('a tool that cancels its own context and then answers', () => {
    describe.each(AGENT_KINDS)('through %s', (_kind, makeAgent) => {
      it.each([
        ['returns a value', (() => 'done anyway') as () => unknown],
        ['resolves a promise', () => Promise.resolve('done anyway')],
      ])('keeps the result on ToolCancelledError when it %s (agent.callTool)', async (_how, answer) => {
        const agent = makeAgent((_args, context) => {
          context.cancel('the tool gave up');
          return answer();
        });
        const error = await outcomeOf(agent.callTool('hang', { a: 1 }));
        expect(error).toBeInstanceOf(ToolCancelledError);
        expect(error).toMatchObject({ hasResult: true, result: 'done anyway', toolName: 'hang' });
        expect((error as Error).message).toMatch(
          /\(the tool gave up\); tool 'hang' finished after cancellation; its result is kept in error\.result/,
        );
      });

      it('keeps the result on ToolCancelledError when an async tool answers after canceling (callToolInContext)', async () => {
        const agent = makeAgent(async (_args, context) => {
          await Promise.resolve();
          context.cancel('the tool gave up');
          return 'done anyway';
        });
        const error = await outcomeOf(agent.callToolInContext('hang', new RunContext(), { a: 1 }));
        expect(error).toBeInstanceOf(ToolCancelledError);
        expect(error).toMatchObject({ hasResult: true, result: 'done anyway' });
      });

      it('reports a result that arrives after the rejection on the error (agent.callTool)', async () => {
        let finish: (value: string) => void = () => undefined;
        const agent = makeAgent((_args, context) => {
          context.cancel('the tool gave up');
          return new Promise<string>((resolve) => (finish = resolve));
        });
        const error = (await outcomeOf(agent.callTool('hang', { a: 1 }))) as ToolCancelledError;
        expectStoppedByItself(error, 'the tool gave up');
        finish('committed late');
        await new Promise((resolve) => setImmediate(resolve));
        expect([error.hasResult, error.result]).toEqual([true, 'committed late']);
      });
    });
  });
});
