import { SessionBusMessageTooLargeError } from '../../../lib/errors/session-bus-message-too-large-error';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { InMemoryEventLog } from '../../../lib/state/memory/in-memory-event-log';
import { InMemorySessionBus } from '../../../lib/state/memory/in-memory-session-bus';
import { InMemorySessionStore } from '../../../lib/state/memory/in-memory-session-store';
import { toResumableEventStore } from '../../../lib/state/to-resumable-event-store';
import { toTokenSubject } from '../../../lib/state/to-token-subject';
import {
  costOf,
  eventLogContract,
  lateSubscriberContract,
  newKey,
  sessionBusContract,
  sessionStoreContract,
  waitFor,
} from '../../fixtures/state/session-seam-contracts';
import { sessionCapContract } from '../../fixtures/state/session-cap-contract';

describe('InMemorySessionStore', () => {
  sessionStoreContract((idleTimeoutMs) => new InMemorySessionStore({ idleTimeoutMs }));
  sessionCapContract((idleTimeoutMs) => new InMemorySessionStore({ idleTimeoutMs }));

  it('refuses an idle timeout that is not a whole number of at least 1', () => {
    for (const idleTimeoutMs of [0, -1, 1.5, Number.NaN]) {
      expect(() => new InMemorySessionStore({ idleTimeoutMs })).toThrow(ToolInputError);
    }
  });

  it('sweeps expired sessions when a new one opens', async () => {
    const store = new InMemorySessionStore({ idleTimeoutMs: 20 });
    await store.create({ ...newKey(), protocolVersion: 'v', clientCapabilities: {}, clientInfo: {} });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await store.create({ ...newKey(), protocolVersion: 'v', clientCapabilities: {}, clientInfo: {} });
    expect(store.size).toBe(1);
  });
});

describe('InMemoryEventLog', () => {
  eventLogContract((options) => new InMemoryEventLog(options));

  it('refuses bad bounds when it is built', () => {
    expect(() => new InMemoryEventLog({ maxEvents: 0 })).toThrow(ToolInputError);
    expect(() => new InMemoryEventLog({ resumeWindowMs: -1 })).toThrow(ToolInputError);
  });

  it('bounds every session together with maxTotalBytes', async () => {
    const message = { jsonrpc: '2.0', method: 'n', params: { text: 'x'.repeat(150) } };
    const log = new InMemoryEventLog({ maxTotalBytes: costOf(message) * 2 });
    const first = newKey();
    const second = newKey();
    await log.append(first, 'stream-a', message);
    await log.append(second, 'stream-a', message);
    await log.append(second, 'stream-a', message);
    expect((await log.usage(first)).events + (await log.usage(second)).events).toBe(2);
    expect((await log.usage(first)).events).toBe(0);
  });
});

describe('InMemorySessionBus', () => {
  sessionBusContract(() => new InMemorySessionBus());
  lateSubscriberContract(() => ({ bus: new InMemorySessionBus(), log: new InMemoryEventLog() }));

  it('refuses a message over maxBytes as a shared bus does, and delivers the next', async () => {
    const bus = new InMemorySessionBus({ maxBytes: 100 });
    const key = { sessionId: 'session-1' };
    const received: unknown[] = [];
    await bus.subscribe(key, (message) => received.push(message));
    const refused = await bus.publish(key, { text: 'x'.repeat(100) }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SessionBusMessageTooLargeError);
    expect((refused as SessionBusMessageTooLargeError).bytes).toBe(111);
    expect((refused as SessionBusMessageTooLargeError).maxBytes).toBe(100);
    await bus.publish(key, { n: 1 });
    await waitFor(() => received.length === 1);
    expect(received).toEqual([{ n: 1 }]);
  });

  it('refuses a maxBytes that is not a whole number of at least 1', () => {
    for (const maxBytes of [0, -1, 1.5, Number.NaN]) {
      expect(() => new InMemorySessionBus({ maxBytes })).toThrow(
        `InMemorySessionBus maxBytes must be a whole number of at least 1, got ${String(maxBytes)}.`,
      );
    }
  });
});

describe('toResumableEventStore', () => {
  it('serves one session of an event log as the endpoint store, and deletes its events on close', async () => {
    const log = new InMemoryEventLog();
    const key = newKey();
    const store = toResumableEventStore(log, key);
    const primer = await store.storeEvent('stream-a', {});
    const id = await store.storeEvent('stream-a', { jsonrpc: '2.0', id: 1, result: {} });
    await expect(store.getStreamIdForEventId!(id)).resolves.toBe('stream-a');
    await expect(store.isStreamComplete!('stream-a')).resolves.toBe(true);
    const sent: string[] = [];
    await store.replayEventsAfter(primer, { send: async (eventId) => void sent.push(eventId) });
    expect(sent).toEqual([id]);
    await store.close!();
    await expect(log.usage(key)).resolves.toEqual({ events: 0, bytes: 0 });
  });
});

describe('toTokenSubject', () => {
  it('hashes a token and never returns it', () => {
    const subject = toTokenSubject('secret-token');
    expect(subject).toMatch(/^[0-9a-f]{64}$/);
    expect(subject).not.toContain('secret');
    expect(toTokenSubject('secret-token')).toBe(subject);
    expect(toTokenSubject('other-token')).not.toBe(subject);
    expect(toTokenSubject(undefined)).toBeUndefined();
    expect(toTokenSubject('')).toBeUndefined();
  });
});
