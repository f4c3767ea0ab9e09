import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import {
  DEFAULT_MAX_STORED_EVENTS,
  InMemoryEventStore,
} from '../../../lib/server/http/in-memory-event-store';

function note(n: number): JSONRPCMessage {
  return { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } };
}

/** The priming event the SDK stores at the start of a resumable stream (no message). */
const PRIMING = {} as JSONRPCMessage;

async function replay(store: InMemoryEventStore, lastEventId: string) {
  const sent: [string, JSONRPCMessage][] = [];
  const streamId = await store.replayEventsAfter(lastEventId, {
    send: async (eventId, message) => {
      sent.push([eventId, message]);
    },
  });
  return { streamId, sent };
}

describe('InMemoryEventStore', () => {
  it('gives ids <streamId>_<sequence>, increasing over all streams, and maps ids back to streams', async () => {
    const store = new InMemoryEventStore();
    const a1 = await store.storeEvent('stream-a', note(1));
    const b1 = await store.storeEvent('stream-b', note(2));
    const a2 = await store.storeEvent('stream-a', note(3));
    expect([a1, b1, a2]).toEqual(['stream-a_1', 'stream-b_2', 'stream-a_3']);
    expect(store.size).toBe(3);
    await expect(store.getStreamIdForEventId(b1)).resolves.toBe('stream-b');
    // A stream id may itself contain underscores: the sequence is what follows the last one.
    const odd = await store.storeEvent('my_stream_id', note(4));
    expect(odd).toBe('my_stream_id_4');
    await expect(store.getStreamIdForEventId(odd)).resolves.toBe('my_stream_id');
  });

  it('replays the events of the same stream after the given id only, in order', async () => {
    const store = new InMemoryEventStore();
    const first = await store.storeEvent('a', note(1));
    await store.storeEvent('b', note(2));
    const second = await store.storeEvent('a', note(3));
    await store.storeEvent('b', note(4));
    const third = await store.storeEvent('a', note(5));
    await expect(replay(store, first)).resolves.toEqual({
      streamId: 'a',
      sent: [
        [second, note(3)],
        [third, note(5)],
      ],
    });
    await expect(replay(store, third)).resolves.toEqual({ streamId: 'a', sent: [] });
  });

  it('skips priming (empty) events when replaying', async () => {
    const store = new InMemoryEventStore();
    const priming = await store.storeEvent('a', PRIMING);
    await store.storeEvent('a', PRIMING);
    const result = await store.storeEvent('a', note(1));
    await expect(replay(store, priming)).resolves.toEqual({ streamId: 'a', sent: [[result, note(1)]] });
  });

  it('keeps the newest maxEvents events; resuming from a forgotten one replays what is left', async () => {
    const store = new InMemoryEventStore({ maxEvents: 2 });
    const ids = [];
    for (let n = 1; n <= 4; n += 1) ids.push(await store.storeEvent('a', note(n)));
    expect(store.size).toBe(2);
    // ids[0] was evicted: its stream is still known from the id itself.
    await expect(store.getStreamIdForEventId(ids[0])).resolves.toBe('a');
    await expect(replay(store, ids[0])).resolves.toEqual({
      streamId: 'a',
      sent: [
        [ids[2], note(3)],
        [ids[3], note(4)],
      ],
    });
  });

  it('keeps 1,000 events by default', async () => {
    expect(DEFAULT_MAX_STORED_EVENTS).toBe(1_000);
    const store = new InMemoryEventStore();
    for (let n = 1; n <= DEFAULT_MAX_STORED_EVENTS + 5; n += 1) await store.storeEvent('a', note(n));
    expect(store.size).toBe(DEFAULT_MAX_STORED_EVENTS);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '10'])(
    'refuses maxEvents %p with ToolInputError',
    (maxEvents) => {
      const create = () => new InMemoryEventStore({ maxEvents: maxEvents as number });
      expect(create).toThrow(ToolInputError);
      expect(create).toThrow(
        `InMemoryEventStore maxEvents must be a whole number of at least 1, got ${String(maxEvents)}.`,
      );
    },
  );

  it.each(['nounderscore', '_5', 'a_0', 'a_x', 'a_-1', 'a_1.5'])(
    'refuses to replay after the malformed id %p with ToolInputError',
    async (eventId) => {
      const store = new InMemoryEventStore();
      await store.storeEvent('a', note(1));
      const failure = replay(store, eventId);
      await expect(failure).rejects.toBeInstanceOf(ToolInputError);
      await expect(failure).rejects.toThrow(`Unknown event id '${eventId}'.`);
      await expect(store.getStreamIdForEventId(eventId)).resolves.toBeUndefined();
    },
  );

  it('cuts a long malformed id in its error message', async () => {
    const failure = replay(new InMemoryEventStore(), 'x'.repeat(5_000));
    await expect(failure).rejects.toThrow(`Unknown event id '${'x'.repeat(100)}'.`);
  });
});
