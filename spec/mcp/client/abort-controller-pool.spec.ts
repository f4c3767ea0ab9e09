import { getEventListeners } from 'node:events';
import { AbortControllerPool } from '../../../lib/mcp/client/abort-controller-pool';

describe('AbortControllerPool', () => {
  describe('take', () => {
    it('hands out different controllers while they are out', () => {
      const pool = new AbortControllerPool();
      const first = pool.take();
      const second = pool.take();
      expect(first).not.toBe(second);
      expect(first.signal.aborted).toBe(false);
    });

    it('reuses a released controller whose signal did not abort, without the listeners added meanwhile', () => {
      const pool = new AbortControllerPool();
      const controller = pool.take();
      const listener = jest.fn();
      controller.signal.addEventListener('abort', listener);
      controller.signal.addEventListener('abort', listener, { once: true, capture: true });
      pool.release(controller);

      const again = pool.take();
      expect(again).toBe(controller);
      expect(getEventListeners(again.signal, 'abort')).toEqual([]);
      again.abort(new Error('stop'));
      expect(listener).not.toHaveBeenCalled();
    });
  });

  describe('release', () => {
    it('drops a controller whose signal aborted', () => {
      const pool = new AbortControllerPool();
      const controller = pool.take();
      controller.abort();
      pool.release(controller);
      expect(pool.take()).not.toBe(controller);
    });

    it('drops a controller whose signal got an onabort handler', () => {
      const pool = new AbortControllerPool();
      const controller = pool.take();
      controller.signal.onabort = () => undefined;
      pool.release(controller);
      expect(pool.take()).not.toBe(controller);
    });

    it('keeps at most `limit` idle controllers', () => {
      const pool = new AbortControllerPool(1);
      const first = pool.take();
      const second = pool.take();
      pool.release(first);
      pool.release(second);
      expect(pool.take()).toBe(first);
      expect(pool.take()).not.toBe(second);
    });

    it('ignores a controller it did not hand out, and one released twice', () => {
      const pool = new AbortControllerPool();
      const stranger = new AbortController();
      pool.release(stranger);
      expect(pool.take()).not.toBe(stranger);
      const controller = pool.take();
      pool.release(controller);
      pool.release(controller);
      expect(pool.take()).toBe(controller);
      expect(pool.take()).not.toBe(controller);
    });
  });
});
