import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { runCancellable } from '../../lib/runtime/run-cancellable';
import { RunContext } from '../../lib/runtime/run-context';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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

    it('rejects with ToolCancelledError when the outside signal aborts mid-run', async () => {
      const controller = new AbortController();
      const context = new RunContext({ signal: controller.signal });
      const pending = runCancellable(context, () => sleep(200), { toolName: 'signal' });
      setTimeout(() => controller.abort(new Error('client went away')), 10);
      await expect(pending).rejects.toThrow('(client went away)');
    });
  });
});
