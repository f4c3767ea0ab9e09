import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { awaitToolRun, runCancellable } from '../../lib/runtime/run-cancellable';
import { RunContext } from '../../lib/runtime/run-context';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Never settles. */
function forever(): Promise<never> {
  return new Promise<never>(() => undefined);
}

/** How the call settled, or 'still pending' after a generous while (liveness, not speed). */
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

describe('runCancellable', () => {
  describe('runCancellable()', () => {
    it('returns the result of a sync or async run when nothing cancels', async () => {
      const context = new RunContext();
      await expect(runCancellable(context, () => 42, { toolName: 'sync' })).resolves.toBe(42);
      await expect(runCancellable(context, async () => 'done', { toolName: 'async' })).resolves.toBe('done');
    });

    it('never starts the run when the context is already canceled', async () => {
      const context = new RunContext();
      context.cancel('stopped early');
      const run = jest.fn(() => 1);
      await expect(runCancellable(context, run, { toolName: 'never' })).rejects.toThrow(ToolCancelledError);
      await expect(runCancellable(context, run, { toolName: 'never' })).rejects.toThrow(
        "tool 'never' did not complete",
      );
      expect(run).not.toHaveBeenCalled();
    });

    it('rejects at once when canceled during a run that ignores its signal, and reports the late result', async () => {
      const context = new RunContext();
      const lateResults: unknown[] = [];
      const started = Date.now();
      const pending = runCancellable(context, () => sleep(300).then(() => 'committed'), {
        toolName: 'slow',
        onLateResult: (result) => lateResults.push(result),
      });
      setTimeout(() => context.cancel('user stop'), 20);
      const error = (await pending.catch((caught: unknown) => caught)) as ToolCancelledError;
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect(error.message).toContain("(user stop); tool 'slow' was stopped before it finished");
      expect(error.hasResult).toBe(false);
      expect(Date.now() - started).toBeLessThan(250);
      await sleep(320);
      expect(lateResults).toEqual(['committed']);
      // The rejected error keeps it too, so a completed side effect is never hidden from the caller.
      expect([error.hasResult, error.result]).toEqual([true, 'committed']);
    });

    it('keeps a result that arrived after cancellation on the error', async () => {
      const context = new RunContext();
      const error = (await runCancellable(
        context,
        () => {
          context.cancel('canceled while finishing');
          return { id: 'BK-1' };
        },
        { toolName: 'book' },
      ).catch((caught: unknown) => caught)) as ToolCancelledError;
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect(error.hasResult).toBe(true);
      expect(error.result).toEqual({ id: 'BK-1' });
      expect(error.message).toContain(
        "tool 'book' finished after cancellation; its result is kept in error.result",
      );
    });

    it('propagates the run’s own error unchanged when nothing canceled', async () => {
      const failure = new RangeError('boom');
      await expect(
        runCancellable(
          new RunContext(),
          async () => {
            throw failure;
          },
          { toolName: 'failing' },
        ),
      ).rejects.toBe(failure);
      await expect(
        runCancellable(
          new RunContext(),
          () => {
            throw failure;
          },
          { toolName: 'failing' },
        ),
      ).rejects.toBe(failure);
    });

    it('rejects when the run cancels its own context and never settles, before or after returning its promise', async () => {
      for (const run of [
        (context: RunContext) => {
          context.cancel('gave up at once');
          return forever();
        },
        async (context: RunContext) => {
          await sleep(1);
          context.cancel('gave up later');
          return forever();
        },
      ]) {
        const context = new RunContext();
        const error = await outcomeOf(runCancellable(context, () => run(context), { toolName: 'hang' }));
        expect(error).toBeInstanceOf(ToolCancelledError);
        expect(error).toMatchObject({ toolName: 'hang', hasResult: false, reason: context.cancelReason });
        expect((error as Error).message).toContain("tool 'hang' was stopped before it finished");
      }
    });

    it('reports what a run throws synchronously after canceling its own context as the cancellation', async () => {
      const failure = new Error('gave up');
      const context = new RunContext();
      const error = await outcomeOf(
        runCancellable(
          context,
          () => {
            context.cancel('stop');
            throw failure;
          },
          { toolName: 'quit' },
        ),
      );
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect(error).toMatchObject({ hasResult: false, cause: failure });
      expect((error as Error).message).toContain("(stop); tool 'quit' was stopped before it finished");
    });

    it('rejects with ToolCancelledError when the outside signal aborts mid-run', async () => {
      const controller = new AbortController();
      const context = new RunContext({ signal: controller.signal });
      const pending = runCancellable(context, () => sleep(200), { toolName: 'signal' });
      setTimeout(() => controller.abort(new Error('client went away')), 10);
      await expect(pending).rejects.toThrow('(client went away)');
    });
  });

  describe('awaitToolRun()', () => {
    it('returns a synchronous result as is, and keeps it on the error when the run canceled its context', async () => {
      await expect(awaitToolRun(new RunContext(), () => 7, 'sync')).resolves.toBe(7);
      const context = new RunContext();
      const error = await outcomeOf(
        awaitToolRun(
          context,
          () => {
            context.cancel('changed its mind');
            return 'booked';
          },
          'book',
        ),
      );
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect(error).toMatchObject({ hasResult: true, result: 'booked' });
    });

    it('rejects when the run cancels its own context and never settles', async () => {
      const context = new RunContext();
      const error = await outcomeOf(
        awaitToolRun(
          context,
          async () => {
            await sleep(1);
            context.cancel('gave up');
            return forever();
          },
          'hang',
        ),
      );
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect((error as Error).message).toMatch(/\(gave up\); tool 'hang' was stopped before it finished\.$/);
    });

    it('rejects when someone else cancels the context while the run never settles', async () => {
      const context = new RunContext();
      const call = awaitToolRun(context, () => forever(), 'hang');
      setImmediate(() => context.cancel('stopped from outside'));
      const error = await outcomeOf(call);
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect((error as Error).message).toContain('(stopped from outside)');
    });
  });
});
