import { execFileSync } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { join } from 'node:path';
import { BudgetExceededError } from '../../lib/errors/budget-exceeded-error';
import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { countAbortListeners } from '../../lib/runtime/on-abort';
import { RunContext } from '../../lib/runtime/run-context';

describe('RunContext', () => {
  describe('constructor', () => {
    it('keeps permissions in canonical form', () => {
      const context = new RunContext({ permissions: { 'network.*': 'denied', mail: true, default: 'ask' } });
      expect(context.permissions).toEqual({
        'network.*': 'deny',
        mail: 'allow',
        default: 'require_approval',
      });
      expect(context.permissionChain()).toEqual([
        { 'network.*': 'deny', mail: 'allow', default: 'require_approval' },
      ]);
    });

    it('throws ToolInputError naming a permission whose effect is unknown', () => {
      expect(() => new RunContext({ permissions: { 'network.read': 'sometimes' } })).toThrow(ToolInputError);
      expect(() => new RunContext({ permissions: { 'network.read': 'sometimes' } })).toThrow(
        `RunContext permissions['network.read'] has the unsupported policy effect "sometimes"`,
      );
      expect(() => new RunContext({ permissions: ['x'] as never })).toThrow(
        'RunContext permissions must map capabilities to effects',
      );
    });
  });

  describe('onCanceled', () => {
    it('calls listeners once on cancel, and not after they were removed', () => {
      const context = new RunContext();
      const kept = jest.fn();
      const removed = jest.fn();
      context.onCanceled(kept);
      const stop = context.onCanceled(removed);
      stop();
      context.cancel('done');
      context.cancel('again');
      expect(kept).toHaveBeenCalledTimes(1);
      expect(removed).not.toHaveBeenCalled();
    });

    it('calls the listeners left after others were removed, and a listener added twice once', () => {
      const context = new RunContext();
      const twice = jest.fn();
      const removedFirst = jest.fn();
      const removedLast = jest.fn();
      const stopFirst = context.onCanceled(removedFirst);
      context.onCanceled(twice);
      context.onCanceled(twice);
      const stopLast = context.onCanceled(removedLast);
      stopFirst();
      stopLast();
      stopFirst();
      context.cancel('done');
      expect(twice).toHaveBeenCalledTimes(1);
      expect(removedFirst).not.toHaveBeenCalled();
      expect(removedLast).not.toHaveBeenCalled();
    });

    it('never drops a listener nor detaches when a removal runs twice', () => {
      const controller = new AbortController();
      const context = new RunContext({ signal: controller.signal });
      const stopGone = context.onCanceled(() => undefined);
      stopGone();
      const kept = jest.fn();
      context.onCanceled(kept);
      stopGone();
      expect(countAbortListeners(controller.signal)).toBe(1);
      controller.abort();
      expect(kept).toHaveBeenCalledTimes(1);
    });

    it('fires when a parent is canceled, when the outside signal aborts, and when the deadline passes', async () => {
      const parent = new RunContext();
      const child = parent.child();
      const fromParent = jest.fn();
      child.onCanceled(fromParent);
      parent.cancel('parent stop');
      expect(fromParent).toHaveBeenCalledTimes(1);
      expect(child.cancelReason).toBe('parent stop');

      const controller = new AbortController();
      const withSignal = new RunContext({ signal: controller.signal });
      const fromSignal = jest.fn();
      withSignal.onCanceled(fromSignal);
      controller.abort('gone');
      expect(fromSignal).toHaveBeenCalledTimes(1);

      const timed = new RunContext({ budget: { maxRuntimeSeconds: 0.02 } });
      await new Promise<void>((resolve) => timed.onCanceled(resolve));
      expect(timed.canceled).toBe(true);
      expect(timed.cancelReason).toBe('budget.maxRuntimeSeconds (0.02) elapsed');
    });

    it('detaches from the outside signal once its last listener is removed', () => {
      const controller = new AbortController();
      const context = new RunContext({ signal: controller.signal });
      const stopFirst = context.onCanceled(() => undefined);
      const stopSecond = context.onCanceled(() => undefined);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
      stopFirst();
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
      stopSecond();
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      const again = jest.fn();
      context.onCanceled(again);
      controller.abort();
      expect(again).toHaveBeenCalledTimes(1);
    });

    it('shares one listener on an outside signal among many contexts, without a MaxListenersExceededWarning', async () => {
      const warnings: Error[] = [];
      const onWarning = (warning: Error) => warnings.push(warning);
      process.on('warning', onWarning);
      try {
        const controller = new AbortController();
        const contexts = Array.from({ length: 20 }, () => new RunContext({ signal: controller.signal }));
        const canceled = contexts.map((context) => {
          const listener = jest.fn();
          context.onCanceled(listener);
          return listener;
        });
        expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
        controller.abort('shared stop');
        for (const listener of canceled) expect(listener).toHaveBeenCalledTimes(1);
        expect(contexts.every((context) => context.cancelReason === 'shared stop')).toBe(true);
        await new Promise((resolve) => setImmediate(resolve));
        expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
      } finally {
        process.off('warning', onWarning);
      }
    });

    it('does not keep finished children attached to a long-lived parent', () => {
      const controller = new AbortController();
      const parent = new RunContext({ signal: controller.signal });
      for (let index = 0; index < 50; index += 1) parent.child().onCanceled(() => undefined)();
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    });

    it('lets contexts whose signal was read be collected while a long-lived signal stays attached to the kept ones', () => {
      // A real subprocess with --expose-gc: 200 contexts share one outside signal; 5 signals are kept.
      const script = `
        const { getEventListeners } = require('node:events');
        const { RunContext } = require(${JSON.stringify(require.resolve('../../lib/runtime/run-context'))});
        const { countAbortListeners } = require(${JSON.stringify(require.resolve('../../lib/runtime/on-abort'))});
        const shared = new AbortController();
        const kept = [];
        for (let i = 0; i < 200; i++) { const s = new RunContext({ signal: shared.signal }).signal; if (i < 5) kept.push(s); }
        const before = countAbortListeners(shared.signal);
        const onSignal = getEventListeners(shared.signal, 'abort').length;
        (async () => {
          for (let i = 0; i < 10; i++) { global.gc(); await new Promise((r) => setTimeout(r, 20)); }
          const after = countAbortListeners(shared.signal);
          shared.abort('stop');
          process.stdout.write(JSON.stringify({ before, onSignal, after, keptAborted: kept.every((s) => s.aborted) }));
        })();`;
      const output = execFileSync(
        process.execPath,
        ['--expose-gc', '--no-warnings', '-r', 'ts-node/register/transpile-only', '-e', script],
        {
          cwd: join(__dirname, '..', '..'),
          encoding: 'utf8',
        },
      );
      expect(JSON.parse(output)).toEqual({ before: 200, onSignal: 1, after: 5, keptAborted: true });
    });

    it('calls a listener soon when the context is already canceled', async () => {
      const context = new RunContext();
      context.cancel();
      await new Promise<void>((resolve) => context.onCanceled(resolve));
      expect(context.signal.aborted).toBe(true);
      expect(context.signal.reason).toBeInstanceOf(ToolCancelledError);
    });
  });

  describe('signal', () => {
    it('aborts with a ToolCancelledError when the run is canceled', () => {
      const context = new RunContext();
      const signal = context.signal;
      expect(signal.aborted).toBe(false);
      context.cancel('halt');
      expect(signal.aborted).toBe(true);
      expect((signal.reason as ToolCancelledError).message).toContain('was canceled (halt)');
    });
  });

  describe('checkToolCallBudget', () => {
    it('checks without counting, then chargeToolCall throws BudgetExceededError at the limit', () => {
      const context = new RunContext({ budget: { maxToolCalls: 1 } });
      context.checkToolCallBudget('a');
      context.checkToolCallBudget('a');
      expect(context.usage.toolCalls).toBe(0);
      context.chargeToolCall('a');
      expect(() => context.checkToolCallBudget('b')).toThrow(BudgetExceededError);
      expect(() => context.chargeToolCall('b')).toThrow(
        "The run's budget allows 1 tool calls (maxToolCalls); calling tool 'b' would exceed it.",
      );
      expect(context.usage.toolCalls).toBe(1);
    });

    it('counts a child’s calls against its parent too', () => {
      const parent = new RunContext({ budget: { maxToolCalls: 2 } });
      const first = parent.child();
      const second = parent.child();
      first.chargeToolCall('a');
      second.chargeToolCall('b');
      expect(parent.usage.toolCalls).toBe(2);
      expect(() => first.chargeToolCall('c')).toThrow(BudgetExceededError);
    });
  });

  describe('toDict', () => {
    it('round-trips through fromDict with permissions, budget, usage and cancellation', () => {
      const context = new RunContext({
        runId: 'run-1',
        sessionId: 'session-1',
        permissions: { 'records.*': 'ask' },
        budget: { maxToolCalls: 3 },
        metadata: { user: 'ada' },
      });
      context.chargeToolCall('a');
      context.cancel('done');
      const restored = RunContext.fromDict(JSON.parse(JSON.stringify(context.toDict())));
      expect(restored.toDict()).toEqual(context.toDict());
      expect(restored.toDict()).toEqual({
        runId: 'run-1',
        sessionId: 'session-1',
        permissions: { 'records.*': 'require_approval' },
        budget: { maxToolCalls: 3 },
        metadata: { user: 'ada' },
        usage: { toolCalls: 1, steps: 0, llmCalls: 0 },
        canceled: true,
        cancelReason: 'done',
      });
    });

    it('throws ToolInputError from fromDict when given no object', () => {
      expect(() => RunContext.fromDict(null)).toThrow(ToolInputError);
      expect(() => RunContext.fromDict(null)).toThrow('RunContext.fromDict() needs an object.');
    });
  });
});

describe('RunContext.fromDict usage', () => {
  it('restores the counters it knows', () => {
    const context = RunContext.fromDict({ runId: 'r', usage: { toolCalls: 2, steps: 1, llmCalls: 0 } });
    expect(context.usage).toMatchObject({ toolCalls: 2, steps: 1, llmCalls: 0 });
  });

  it.each([
    [{ toolCalls: '1' }, /usage\.toolCalls must be a whole number of at least 0, got "1"/],
    [{ toolCalls: -5 }, /usage\.toolCalls must be a whole number of at least 0, got -5/],
    [{ toString: 1 }, /usage\.toString is not a counter/],
    ['many', /usage must be an object of counters/],
  ])('refuses usage %p with ToolInputError', (usage, message) => {
    expect(() => RunContext.fromDict({ runId: 'r', usage })).toThrow(ToolInputError);
    expect(() => RunContext.fromDict({ runId: 'r', usage })).toThrow(message);
  });
});
