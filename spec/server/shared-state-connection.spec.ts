import { SessionStoreUnavailableError } from '../../lib/errors/session-store-unavailable-error';
import { InMemoryEventLog } from '../../lib/state/memory/in-memory-event-log';
import { InMemorySessionBus } from '../../lib/state/memory/in-memory-session-bus';
import { InMemorySessionStore } from '../../lib/state/memory/in-memory-session-store';
import { SharedStateConnection } from '../../lib/server/shared-state-connection';
import type { ClosableSharedState } from '../../lib/server/shared-state-connection';

function newState(log: string[]): ClosableSharedState {
  return {
    sessions: new InMemorySessionStore({ idleTimeoutMs: 60_000 }),
    events: new InMemoryEventLog(),
    bus: new InMemorySessionBus(),
    close: async () => {
      log.push('closed');
    },
  };
}

const down = () => new SessionStoreUnavailableError({ reason: 'connect ECONNREFUSED 127.0.0.1:1' });

describe('SharedStateConnection', () => {
  describe('get', () => {
    it('connects once and shares the state between callers', async () => {
      const log: string[] = [];
      const connect = jest.fn(async () => newState(log));
      const connection = new SharedStateConnection(connect);
      const [first, second] = await Promise.all([connection.get(), connection.get()]);
      expect(first).toBe(second);
      expect(await connection.get()).toBe(first);
      expect(connect).toHaveBeenCalledTimes(1);
    });

    it('forgets a failed attempt, so the next call tries again', async () => {
      const log: string[] = [];
      const connect = jest
        .fn<Promise<ClosableSharedState>, []>()
        .mockRejectedValueOnce(down())
        .mockResolvedValueOnce(newState(log));
      const connection = new SharedStateConnection(connect);
      await expect(connection.get()).rejects.toThrow('session store unavailable: connect ECONNREFUSED');
      await expect(connection.get()).resolves.toHaveProperty('sessions');
      expect(connect).toHaveBeenCalledTimes(2);
    });

    it('turns a connect function that throws at once into a rejection', async () => {
      const connection = new SharedStateConnection(() => {
        throw down();
      });
      await expect(connection.get()).rejects.toBeInstanceOf(SessionStoreUnavailableError);
    });
  });

  describe('close', () => {
    it('closes the connected state, and refuses later calls as unavailable, not retryable', async () => {
      const log: string[] = [];
      const connection = new SharedStateConnection(async () => newState(log));
      await connection.get();
      await connection.close();
      expect(log).toEqual(['closed']);
      const error = await connection.get().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SessionStoreUnavailableError);
      expect(error).toMatchObject({
        message: 'session store unavailable: the server is closed',
        retryable: false,
      });
    });

    it('closes a state still connecting once it is connected, and nothing when it failed or never started', async () => {
      const log: string[] = [];
      let finish: (state: ClosableSharedState) => void = () => {};
      const connection = new SharedStateConnection(
        () => new Promise<ClosableSharedState>((resolve) => (finish = resolve)),
      );
      const pending = connection.get();
      const closed = connection.close();
      // connect runs on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(log).toEqual([]);
      finish(newState(log));
      await closed;
      expect(log).toEqual(['closed']);
      await expect(pending).resolves.toHaveProperty('bus');
      await new SharedStateConnection(async () => newState(log)).close();
      const failing = new SharedStateConnection(() => Promise.reject(down()));
      await failing.get().catch(() => undefined);
      await failing.close();
      expect(log).toEqual(['closed']);
    });
  });
});
