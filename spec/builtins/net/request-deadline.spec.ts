import { RequestDeadline } from '../../../lib/builtins/net/request-deadline';

describe('RequestDeadline', () => {
  it('aborts its signal and reports timedOut when the deadline passes', async () => {
    const deadline = new RequestDeadline(30);
    expect(deadline.signal.aborted).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.timedOut).toBe(true);
    expect(deadline.cancelled).toBe(false);
    expect(deadline.remainingMs()).toBe(0);
    expect((deadline.signal.reason as Error).message).toBe('deadline of 30 ms passed');
    deadline.dispose();
  });

  it('reports cancelled with the caller reason when the caller signal aborts first', () => {
    const controller = new AbortController();
    const deadline = new RequestDeadline(10_000, controller.signal);
    controller.abort('user');
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBe('user');
    expect(deadline.cancelled).toBe(true);
    expect(deadline.timedOut).toBe(false);
    deadline.dispose();
  });

  it('starts aborted when the caller signal is already aborted', () => {
    const controller = new AbortController();
    controller.abort();
    const deadline = new RequestDeadline(10_000, controller.signal);
    expect(deadline.cancelled).toBe(true);
    deadline.dispose();
  });

  it('stops listening to the caller signal and the timer after dispose', async () => {
    const controller = new AbortController();
    const deadline = new RequestDeadline(20, controller.signal);
    expect(deadline.remainingMs()).toBeGreaterThan(0);
    deadline.dispose();
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(deadline.signal.aborted).toBe(false);
  });
});
