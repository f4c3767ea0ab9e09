import type { McpSession } from '../../../lib/mcp/rev2025-11-25/mcp-session-store';
import { McpSessionStore } from '../../../lib/mcp/rev2025-11-25/mcp-session-store';

function fakeSession(id: string, closed: string[], clientAddress = '127.0.0.1'): McpSession {
  return {
    id,
    clientAddress,
    lastActivity: Date.now(),
    openRequests: 0,
    soloResponses: new Map(),
    getStreams: 0,
    calls: { gate: { active: 0 } } as never,
    fastCalls: new Map(),
    transport: {} as never,
    server: { close: async () => void closed.push(id) } as never,
  };
}

describe('McpSessionStore', () => {
  describe('sweep', () => {
    it('closes sessions idle past the timeout, keeps busy and recent ones', async () => {
      const closed: string[] = [];
      const store = new McpSessionStore({ idleTimeoutMs: 1000, sweepIntervalMs: 60_000 });
      const idle = fakeSession('idle', closed);
      const busy = fakeSession('busy', closed);
      const recent = fakeSession('recent', closed);
      [idle, busy, recent].forEach((session) => store.add(session));
      const now = Date.now();
      idle.lastActivity = now - 5000;
      busy.lastActivity = now - 5000;
      const end = store.track(busy);
      busy.lastActivity = now - 5000;
      store.sweep(now);
      await new Promise((resolve) => setImmediate(resolve));
      expect(closed).toEqual(['idle']);
      expect(store.get('idle')).toBeUndefined();
      expect(store.size).toBe(2);
      end();
      end();
      expect(busy.openRequests).toBe(0);
      store.sweep(Date.now() + 2000);
      await new Promise((resolve) => setImmediate(resolve));
      expect(closed.sort()).toEqual(['busy', 'idle', 'recent']);
      await store.closeAll();
    });
  });

  describe('a running call', () => {
    it('keeps its session past the idle timeout even with no request open (its stream was let go)', async () => {
      const closed: string[] = [];
      const store = new McpSessionStore({ idleTimeoutMs: 1000, sweepIntervalMs: 60_000 });
      const running = fakeSession('running', closed);
      const gate = { active: 1 };
      store.add({ ...running, calls: { gate } as never });
      store.sweep(Date.now() + 5000);
      await new Promise((resolve) => setImmediate(resolve));
      expect(closed).toEqual([]);
      gate.active = 0;
      store.sweep(Date.now() + 5000);
      await new Promise((resolve) => setImmediate(resolve));
      expect(closed).toEqual(['running']);
      await store.closeAll();
    });
  });

  describe('a stream-only request (the GET stream)', () => {
    it('leaves the session idle, so it still expires', async () => {
      const closed: string[] = [];
      const store = new McpSessionStore({ idleTimeoutMs: 1000, sweepIntervalMs: 60_000 });
      const streaming = fakeSession('streaming', closed);
      store.add(streaming);
      const end = store.track(streaming, false);
      expect(streaming.openRequests).toBe(0);
      store.sweep(Date.now() + 2000);
      await new Promise((resolve) => setImmediate(resolve));
      expect(closed).toEqual(['streaming']);
      end();
      expect(streaming.openRequests).toBe(0);
      await store.closeAll();
    });
  });

  describe('countFor', () => {
    it('counts open sessions per client address, through adds, deletes and expiry', async () => {
      const closed: string[] = [];
      const store = new McpSessionStore({ idleTimeoutMs: 1000, sweepIntervalMs: 60_000 });
      store.add(fakeSession('a1', closed, '10.0.0.1'));
      store.add(fakeSession('a2', closed, '10.0.0.1'));
      store.add(fakeSession('a2', closed, '10.0.0.1'));
      store.add(fakeSession('b1', closed, '10.0.0.2'));
      expect([store.countFor('10.0.0.1'), store.countFor('10.0.0.2'), store.countFor('10.0.0.3')]).toEqual([
        2, 1, 0,
      ]);
      store.delete('a1');
      store.delete('a1');
      expect(store.countFor('10.0.0.1')).toBe(1);
      store.sweep(Date.now() + 2000);
      await new Promise((resolve) => setImmediate(resolve));
      expect([store.countFor('10.0.0.1'), store.countFor('10.0.0.2')]).toEqual([0, 0]);
      await store.closeAll();
    });
  });

  describe('a running task', () => {
    it('does not keep its session past the idle timeout (its client polls), but a shared copy stays', async () => {
      const closed: string[] = [];
      const local = new McpSessionStore({ idleTimeoutMs: 1000, sweepIntervalMs: 60_000 });
      const shared = new McpSessionStore({ idleTimeoutMs: 1000, sweepIntervalMs: 60_000, shared: true });
      const tasking = () => ({ gate: { active: 2 }, runningTasks: 1 }) as never;
      local.add({ ...fakeSession('one-task-one-call', closed), calls: tasking() });
      local.add({
        ...fakeSession('tasks-only', closed),
        calls: { gate: { active: 1 }, runningTasks: 1 } as never,
      });
      shared.add({
        ...fakeSession('shared-copy', closed),
        calls: { gate: { active: 1 }, runningTasks: 1 } as never,
      });
      local.sweep(Date.now() + 5000);
      shared.sweep(Date.now() + 5000);
      await new Promise((resolve) => setImmediate(resolve));
      expect(closed).toEqual(['tasks-only']);
      await local.closeAll();
      await shared.closeAll();
    });
  });

  describe('an ended session whose calls still run', () => {
    it('stays counted (held, countFor) until its calls end; a copy let go of does not', async () => {
      const closed: string[] = [];
      const store = new McpSessionStore({ idleTimeoutMs: 1000, sweepIntervalMs: 60_000 });
      const gate = { active: 1 };
      store.add({ ...fakeSession('ended', closed, '10.0.0.1'), calls: { gate, runningTasks: 1 } as never });
      store.add({
        ...fakeSession('let-go', closed, '10.0.0.1'),
        released: true,
        calls: { gate: { active: 1 }, runningTasks: 0 } as never,
      });
      store.delete('ended');
      store.delete('let-go');
      expect([store.size, store.held, store.countFor('10.0.0.1')]).toEqual([0, 1, 1]);
      gate.active = 0;
      expect([store.held, store.countFor('10.0.0.1')]).toEqual([0, 0]);
      await store.closeAll();
    });
  });

  describe('closeAll', () => {
    it('closes every session, even one whose server fails to close', async () => {
      const closed: string[] = [];
      const store = new McpSessionStore({ idleTimeoutMs: 1000 });
      store.add(fakeSession('a', closed));
      store.add({
        ...fakeSession('b', closed),
        server: { close: async () => Promise.reject(new RangeError('gone')) } as never,
      });
      await store.closeAll();
      expect(closed).toEqual(['a']);
      expect(store.size).toBe(0);
    });
  });
});
