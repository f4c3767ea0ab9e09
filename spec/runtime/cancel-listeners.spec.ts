import {
  addCancelListener,
  callCancelListeners,
  removeCancelListener,
} from '../../lib/runtime/cancel-listeners';
import type { CancelListeners } from '../../lib/runtime/cancel-listeners';

describe('cancel listeners', () => {
  describe('addCancelListener', () => {
    it('keeps one listener as is, several in a Set, and a listener added twice once', () => {
      const first = jest.fn();
      const second = jest.fn();
      let listeners: CancelListeners = addCancelListener(undefined, first);
      expect(listeners).toBe(first);
      expect(addCancelListener(listeners, first)).toBe(first);
      listeners = addCancelListener(listeners, second);
      expect(listeners).toBeInstanceOf(Set);
      expect([...(listeners as Set<() => void>)]).toEqual([first, second]);
      expect([...(addCancelListener(listeners, first) as Set<() => void>)]).toEqual([first, second]);
    });
  });

  describe('removeCancelListener', () => {
    it('returns undefined once the last listener is removed, never an empty Set', () => {
      const first = jest.fn();
      const second = jest.fn();
      expect(removeCancelListener(first, first)).toBeUndefined();
      const both = addCancelListener(first, second);
      const left = removeCancelListener(both, first);
      expect([...(left as Set<() => void>)]).toEqual([second]);
      expect(removeCancelListener(left, second)).toBeUndefined();
    });

    it('returns the listeners unchanged when the listener is not among them', () => {
      const kept = jest.fn();
      const stranger = jest.fn();
      expect(removeCancelListener(undefined, stranger)).toBeUndefined();
      expect(removeCancelListener(kept, stranger)).toBe(kept);
      const several = addCancelListener(kept, jest.fn());
      expect(removeCancelListener(several, stranger)).toBe(several);
      expect((several as Set<() => void>).size).toBe(2);
    });
  });

  describe('callCancelListeners', () => {
    it('calls every listener once, and warns about one that throws without skipping the others', () => {
      const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      try {
        const before = jest.fn();
        const after = jest.fn();
        const broken = () => {
          throw new Error('listener broke');
        };
        callCancelListeners(addCancelListener(addCancelListener(before, broken), after));
        callCancelListeners(before);
        callCancelListeners(undefined);
        expect(before).toHaveBeenCalledTimes(2);
        expect(after).toHaveBeenCalledTimes(1);
        expect(emitWarning).toHaveBeenCalledTimes(1);
        expect(emitWarning).toHaveBeenCalledWith('A RunContext cancel listener threw: listener broke', {
          code: 'PROTOLINK_CANCEL_LISTENER',
        });
      } finally {
        emitWarning.mockRestore();
      }
    });
  });
});
