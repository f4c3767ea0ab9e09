import { getEventListeners } from 'node:events';
import { onAbort } from '../../lib/runtime/on-abort';

describe('onAbort', () => {
  it('calls every listener once when the signal aborts, through one listener on the signal', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    onAbort(controller.signal, () => calls.push('a'));
    onAbort(controller.signal, () => calls.push('b'));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort();
    controller.abort();
    expect(calls).toEqual(['a', 'b']);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('removes a listener, and the shared one with the last of them', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const stopA = onAbort(controller.signal, () => calls.push('a'));
    const stopB = onAbort(controller.signal, () => calls.push('b'));
    stopA();
    stopA();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    stopB();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    const stopC = onAbort(controller.signal, () => calls.push('c'));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort();
    stopC();
    expect(calls).toEqual(['c']);
  });

  it('does not call a listener that an earlier one removed while the signal aborted', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    let stopB: () => void = () => undefined;
    onAbort(controller.signal, () => {
      calls.push('a');
      stopB();
    });
    stopB = onAbort(controller.signal, () => calls.push('b'));
    controller.abort();
    expect(calls).toEqual(['a']);
  });

  it('holds many listeners on one signal without a MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      const stops = Array.from({ length: 50 }, () => onAbort(controller.signal, () => undefined));
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
      for (const stop of stops) stop();
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
