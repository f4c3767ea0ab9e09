import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { EventStoreBudget } from '../../../lib/state/event-store-budget';
import { TOO_BIG_TO_KEEP_MESSAGE } from '../../../lib/state/too-big-to-keep';
import {
  DEFAULT_MAX_STORED_EVENT_BYTES,
  DEFAULT_MAX_STORED_EVENTS,
  DEFAULT_RESUME_WINDOW_MS,
  InMemoryEventStore,
} from '../../../lib/state/memory/in-memory-event-store';
import { waitFor } from '../../fixtures/serve/http-helpers';

function note(n: number): JSONRPCMessage {
  return { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } };
}

/** A call's final response carrying `size` characters of text. */
function result(id: number, size = 10): JSONRPCMessage {
  return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'x'.repeat(size) }] } };
}

/** What one stored event costs: its serialized message plus the fixed 100 bytes. */
function cost(message: object): number {
  return Buffer.byteLength(JSON.stringify(message)) + 100;
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
  const stores: InMemoryEventStore[] = [];
  function storeWith(options: ConstructorParameters<typeof InMemoryEventStore>[0] = {}) {
    const store = new InMemoryEventStore(options);
    stores.push(store);
    return store;
  }
  afterEach(() => stores.splice(0).forEach((store) => store.close()));

  it('gives ids <streamId>_<sequence>, increasing over all streams, and maps ids back to streams', async () => {
    const store = storeWith();
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
    const store = storeWith();
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

  it('replays a copy taken when the event was stored, not the message object as it is now', async () => {
    const store = storeWith();
    const priming = await store.storeEvent('a', PRIMING);
    const message = note(1) as unknown as { params: { data: unknown } };
    const id = await store.storeEvent('a', message as unknown as JSONRPCMessage);
    message.params.data = 'changed later';
    await expect(replay(store, priming)).resolves.toEqual({ streamId: 'a', sent: [[id, note(1)]] });
  });

  it('skips priming (empty) events when replaying', async () => {
    const store = storeWith();
    const priming = await store.storeEvent('a', PRIMING);
    await store.storeEvent('a', PRIMING);
    const response = await store.storeEvent('a', note(1));
    await expect(replay(store, priming)).resolves.toEqual({ streamId: 'a', sent: [[response, note(1)]] });
  });

  it('keeps the newest maxEvents events; a dropped id is unknown and cannot be resumed from', async () => {
    const store = storeWith({ maxEvents: 2 });
    const ids = [];
    for (let n = 1; n <= 4; n += 1) ids.push(await store.storeEvent('a', note(n)));
    expect(store.size).toBe(2);
    await expect(store.getStreamIdForEventId(ids[0])).resolves.toBeUndefined();
    await expect(replay(store, ids[0])).rejects.toThrow(
      `Unknown or expired event id '${ids[0]}': it was never issued or is no longer kept; start a new stream or re-send the request.`,
    );
    await expect(replay(store, ids[2])).resolves.toEqual({ streamId: 'a', sent: [[ids[3], note(4)]] });
  });

  it('keeps 1,000 events, 8 MiB, for 30 s after a response by default', async () => {
    expect(DEFAULT_MAX_STORED_EVENTS).toBe(1_000);
    expect(DEFAULT_MAX_STORED_EVENT_BYTES).toBe(8 * 1024 * 1024);
    expect(DEFAULT_RESUME_WINDOW_MS).toBe(30_000);
    const store = storeWith();
    for (let n = 1; n <= DEFAULT_MAX_STORED_EVENTS + 5; n += 1) await store.storeEvent('a', note(n));
    expect(store.size).toBe(DEFAULT_MAX_STORED_EVENTS);
  });

  describe('bytes', () => {
    it('counts each event as its serialized message plus 100 bytes', async () => {
      const store = storeWith();
      await store.storeEvent('a', PRIMING);
      await store.storeEvent('a', note(1));
      await store.storeEvent('b', result(1, 1_000));
      expect(store.storedBytes).toBe(cost(PRIMING) + cost(note(1)) + cost(result(1, 1_000)));
    });

    it('stays within maxBytes, dropping the oldest events first', async () => {
      const maxBytes = 10 * cost(result(1, 1_000));
      const store = storeWith({ maxBytes, resumeWindowMs: 60_000 });
      const ids: string[] = [];
      for (let n = 1; n <= 50; n += 1) {
        ids.push(await store.storeEvent(`call-${n}`, PRIMING));
        ids.push(await store.storeEvent(`call-${n}`, result(n, 1_000)));
        expect(store.storedBytes).toBeLessThanOrEqual(maxBytes);
      }
      // Without the bound, the 100 events would weigh about ten times as much.
      expect(store.storedBytes).toBeGreaterThan(maxBytes / 2);
      await expect(store.getStreamIdForEventId(ids[0])).resolves.toBeUndefined();
      await expect(replay(store, ids[98])).resolves.toEqual({
        streamId: 'call-50',
        sent: [[ids[99], result(50, 1_000)]],
      });
    });

    it('keeps no event larger than maxBytes, and forgets the rest of its stream', async () => {
      const store = storeWith({ maxBytes: 2_000 });
      const other = await store.storeEvent('other', note(0));
      const priming = await store.storeEvent('a', PRIMING);
      await store.storeEvent('a', note(1));
      const large = await store.storeEvent('a', {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: 'x'.repeat(5_000) },
      });
      await expect(store.getStreamIdForEventId(large)).resolves.toBeUndefined();
      // A resume of the stream would miss the large notification: it is refused instead.
      await expect(store.getStreamIdForEventId(priming)).resolves.toBeUndefined();
      await expect(store.getStreamIdForEventId(other)).resolves.toBe('other');
      expect(store.storedBytes).toBe(cost(note(0)));
    });

    it('keeps a response larger than maxBytes as an error saying so, so a resume learns the outcome', async () => {
      const store = storeWith({ maxBytes: 2_000 });
      const priming = await store.storeEvent('a', PRIMING);
      const large = await store.storeEvent('a', result(1, 5_000));
      const kept = { jsonrpc: '2.0', id: 1, error: { code: -32603, message: TOO_BIG_TO_KEEP_MESSAGE } };
      const sent: unknown[] = [];
      await store.replayEventsAfter(priming, {
        send: async (eventId, message) => void sent.push([eventId, message]),
      });
      expect(sent).toEqual([[large, kept]]);
      await expect(store.isStreamComplete('a')).resolves.toBe(true);
    });
  });

  describe('budget', () => {
    it('keeps the stores sharing a budget within it together, the oldest of any store dropped first', async () => {
      const budget = new EventStoreBudget({ maxBytes: 6 * cost(result(20, 1_000)) });
      const sessions = [storeWith({ budget }), storeWith({ budget }), storeWith({ budget })];
      const firstIds: string[] = [];
      for (let n = 1; n <= 20; n += 1) {
        for (const store of sessions) {
          const id = await store.storeEvent(`call-${n}`, result(n, 1_000));
          if (n === 1) firstIds.push(id);
          expect(budget.usedBytes).toBeLessThanOrEqual(budget.maxBytes);
          expect(sessions.reduce((sum, each) => sum + each.storedBytes, 0)).toBe(budget.usedBytes);
        }
      }
      // Each store stays well under its own 8 MiB: the shared bound is what dropped their first events.
      for (const [index, store] of sessions.entries()) {
        expect(store.size).toBe(2);
        await expect(store.getStreamIdForEventId(firstIds[index])).resolves.toBeUndefined();
      }
    });

    it('gives a closed store’s bytes back to the budget', async () => {
      const budget = new EventStoreBudget({ maxBytes: 1_000_000 });
      const store = storeWith({ budget });
      const kept = storeWith({ budget });
      await store.storeEvent('a', result(1, 1_000));
      await kept.storeEvent('b', result(2, 1_000));
      store.close();
      expect(store.storedBytes).toBe(0);
      expect(store.size).toBe(0);
      expect(budget.usedBytes).toBe(kept.storedBytes);
      // A closed store keeps nothing more (its session is gone).
      await store.storeEvent('a', note(2));
      expect(store.size).toBe(0);
      expect(budget.usedBytes).toBe(kept.storedBytes);
    });
  });

  describe('resumeWindowMs', () => {
    it('marks a stream complete once a response is stored on it', async () => {
      const store = storeWith();
      await store.storeEvent('a', PRIMING);
      await store.storeEvent('a', note(1));
      await expect(store.isStreamComplete('a')).resolves.toBe(false);
      await store.storeEvent('a', result(1));
      await expect(store.isStreamComplete('a')).resolves.toBe(true);
      await expect(store.isStreamComplete('never-seen')).resolves.toBe(false);
    });

    it("releases a stream's events once the window after its response has passed, other streams stay", async () => {
      const store = storeWith({ resumeWindowMs: 50 });
      const priming = await store.storeEvent('done', PRIMING);
      await store.storeEvent('done', result(1, 1_000));
      const running = await store.storeEvent('running', PRIMING);
      await store.storeEvent('running', note(2));
      await waitFor(() => store.size === 2);
      await expect(store.getStreamIdForEventId(priming)).resolves.toBeUndefined();
      await expect(store.getStreamIdForEventId(running)).resolves.toBe('running');
      expect(store.storedBytes).toBe(cost(PRIMING) + cost(note(2)));
    });

    it('keeps a finished stream for the whole window', async () => {
      const store = storeWith({ resumeWindowMs: 60_000 });
      const priming = await store.storeEvent('done', PRIMING);
      const response = await store.storeEvent('done', result(1));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await expect(replay(store, priming)).resolves.toEqual({
        streamId: 'done',
        sent: [[response, result(1)]],
      });
    });
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '10'])(
    'refuses maxEvents and maxBytes %p with ToolInputError',
    (value) => {
      for (const name of ['maxEvents', 'maxBytes']) {
        const create = () => new InMemoryEventStore({ [name]: value as number });
        expect(create).toThrow(ToolInputError);
        expect(create).toThrow(
          `InMemoryEventStore ${name} must be a whole number of at least 1, got ${String(value)}.`,
        );
      }
    },
  );

  it.each([0, -5, Number.NaN, Number.POSITIVE_INFINITY, 2_147_483_648, '10'])(
    'refuses resumeWindowMs %p with ToolInputError',
    (resumeWindowMs) => {
      const create = () => new InMemoryEventStore({ resumeWindowMs: resumeWindowMs as number });
      expect(create).toThrow(ToolInputError);
      expect(create).toThrow(
        `InMemoryEventStore resumeWindowMs must be a number of milliseconds above 0 and at most 2147483647, got ${String(resumeWindowMs)}.`,
      );
    },
  );

  it.each(['nounderscore', '_5', 'a_0', 'a_x', 'a_-1', 'a_1.5', 'a_99'])(
    'refuses to replay after the id %p it never issued, with ToolInputError',
    async (eventId) => {
      const store = storeWith();
      await store.storeEvent('a', note(1));
      const failure = replay(store, eventId);
      await expect(failure).rejects.toBeInstanceOf(ToolInputError);
      await expect(failure).rejects.toThrow(`Unknown or expired event id '${eventId}'`);
      await expect(store.getStreamIdForEventId(eventId)).resolves.toBeUndefined();
    },
  );

  it('cuts a long unknown id in its error message', async () => {
    const failure = replay(storeWith(), 'x'.repeat(5_000));
    await expect(failure).rejects.toThrow(`Unknown or expired event id '${'x'.repeat(100)}':`);
  });
});
