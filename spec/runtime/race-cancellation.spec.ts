import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { raceCancellation } from '../../lib/runtime/race-cancellation';
import { RunContext } from '../../lib/runtime/run-context';

describe('raceCancellation', () => {
  describe('raceCancellation()', () => {
    it('resolves and rejects with the promise when the run is not canceled', async () => {
      await expect(raceCancellation(new RunContext(), Promise.resolve(7), 'The answer')).resolves.toBe(7);
      const failure = new RangeError('no');
      await expect(raceCancellation(new RunContext(), Promise.reject(failure), 'The answer')).rejects.toBe(
        failure,
      );
    });

    it('rejects with ToolCancelledError naming what was pending when the run is canceled first', async () => {
      const context = new RunContext({ runId: 'run-r' });
      const pending = raceCancellation(
        context,
        new Promise(() => undefined),
        "The approval for tool 'x'",
        'x',
      );
      context.cancel('gave up');
      const error = (await pending.catch((caught: unknown) => caught)) as ToolCancelledError;
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect(error.message).toBe(
        "The approval for tool 'x' was still pending when run run-r was canceled (gave up); the tool did not run.",
      );
      expect(error.toolName).toBe('x');
    });
  });
});
