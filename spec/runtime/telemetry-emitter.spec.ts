import { TelemetryEmitter } from '../../lib/runtime/telemetry-emitter';

interface Events {
  ping: { n: number };
}

describe('TelemetryEmitter', () => {
  describe('emit', () => {
    it('delivers to every listener until it is removed', () => {
      const emitter = new TelemetryEmitter<Events>();
      const seen: number[] = [];
      const listener = (event: { n: number }) => {
        seen.push(event.n);
      };
      emitter.on('ping', listener);
      expect(emitter.active).toBe(true);
      emitter.emit('ping', { n: 1 });
      expect(emitter.off('ping', listener)).toBe(true);
      expect(emitter.off('ping', listener)).toBe(false);
      emitter.emit('ping', { n: 2 });
      expect(seen).toEqual([1]);
      expect(emitter.has('ping')).toBe(false);
    });

    it('keeps going when a listener throws or rejects, and reports the errors', async () => {
      const errors: [unknown, string][] = [];
      const emitter = new TelemetryEmitter<Events>((error, name) => errors.push([error, name]));
      const after = jest.fn();
      emitter.on('ping', () => {
        throw new Error('sync listener bug');
      });
      emitter.on('ping', async () => {
        throw new Error('async listener bug');
      });
      emitter.on('ping', after);
      expect(() => emitter.emit('ping', { n: 1 })).not.toThrow();
      await new Promise((resolve) => setImmediate(resolve));
      expect(after).toHaveBeenCalledWith({ n: 1 });
      expect(errors.map(([error, name]) => [(error as Error).message, name])).toEqual([
        ['sync listener bug', 'ping'],
        ['async listener bug', 'ping'],
      ]);
    });

    it('warns once through the process when no error handler is given', () => {
      const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      try {
        const emitter = new TelemetryEmitter<Events>();
        emitter.on('ping', () => {
          throw new Error('bug');
        });
        emitter.emit('ping', { n: 1 });
        emitter.emit('ping', { n: 2 });
        expect(warn).toHaveBeenCalledTimes(1);
        expect(String(warn.mock.calls[0][0])).toContain(
          "A 'ping' telemetry listener threw (bug); the call continued.",
        );
      } finally {
        warn.mockRestore();
      }
    });
  });
});
