import { raceSignal } from '../../lib/runtime/race-signal';

describe('raceSignal', () => {
  it('returns the promise itself without a signal', () => {
    const promise = Promise.resolve(1);
    expect(raceSignal(promise, undefined)).toBe(promise);
  });

  it('resolves and rejects with the promise while the signal stays quiet', async () => {
    const controller = new AbortController();
    await expect(raceSignal(Promise.resolve('value'), controller.signal)).resolves.toBe('value');
    await expect(raceSignal(Promise.reject(new RangeError('boom')), controller.signal)).rejects.toThrow(
      'boom',
    );
  });

  it('rejects at once with the reason when the signal aborts first, swallowing the late failure', async () => {
    const controller = new AbortController();
    let fail!: (error: Error) => void;
    const pending = new Promise<string>((_resolve, reject) => (fail = reject));
    const raced = raceSignal(pending, controller.signal);
    controller.abort(new TypeError('stop'));
    await expect(raced).rejects.toThrow('stop');
    fail(new Error('late'));
    await new Promise((resolve) => setImmediate(resolve));
  });

  it('rejects with the built error for a signal that already aborted', async () => {
    const controller = new AbortController();
    controller.abort('why');
    await expect(
      raceSignal(
        new Promise(() => undefined),
        controller.signal,
        (reason) => new RangeError(`canceled: ${String(reason)}`),
      ),
    ).rejects.toThrow('canceled: why');
  });
});
