import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ToolInputError } from '../../errors/tool-input-error';
import { tooBigToKeep } from '../too-big-to-keep';
import type { EventStoreBudget, EventStoreBudgetEntry } from '../event-store-budget';
import type { ResumableEventStore } from '../resumable-event-store';

/** Options of {@link InMemoryEventStore}. */
export interface InMemoryEventStoreOptions {
  /** Most events kept (all streams of the session together); the oldest are dropped first (default 1,000). */
  maxEvents?: number;
  /**
   * Most bytes kept (all streams of the session together), counting each event as its serialized JSON-RPC
   * message plus 100 bytes; the oldest events are dropped first; a response larger than this is kept as a
   * JSON-RPC error for the same request saying so, and any other event larger than this is not kept at all,
   * nor is the rest of its stream (default 8 MiB).
   */
  maxBytes?: number;
  /**
   * How long a stream's events are kept after its final response was stored, in ms, for a client that was
   * away (or polling) to come back and resume it; then they are released (default 30 s). Keep it above the
   * SSE `retry` delay sent to clients.
   */
  resumeWindowMs?: number;
  /**
   * A byte bound shared with the stores of the other sessions (one per server): the events of every store
   * sharing it stay within it together, the oldest of any session evicted first. None by default.
   */
  budget?: EventStoreBudget;
}

/** Default of {@link InMemoryEventStoreOptions.maxEvents}. */
export const DEFAULT_MAX_STORED_EVENTS = 1_000;

/** Default of {@link InMemoryEventStoreOptions.maxBytes}: 8 MiB. */
export const DEFAULT_MAX_STORED_EVENT_BYTES = 8 * 1024 * 1024;

/** Default of {@link InMemoryEventStoreOptions.resumeWindowMs}: 30 s. */
export const DEFAULT_RESUME_WINDOW_MS = 30_000;

/** The longest delay Node's timers take (about 24.8 days); longer ones would fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** What an event costs besides its message: its id, its map entries and the bookkeeping around it. */
const EVENT_OVERHEAD_BYTES = 100;

/** The priming event of a stream carries no message; it only marks a resumption point. */
const EMPTY_MESSAGE = '{}';

interface StoredEvent {
  readonly eventId: string;
  readonly streamId: string;
  readonly sequence: number;
  /** The message, serialized once: a string costs what it weighs, and the message object can be collected. */
  readonly json: string;
  readonly bytes: number;
  charged?: EventStoreBudgetEntry;
}

interface StoredStream {
  /** Oldest first. */
  readonly events: StoredEvent[];
  /** A response was stored on it: nothing more is expected (one request per POST). */
  complete: boolean;
  releaseTimer?: NodeJS.Timeout;
}

/**
 * A bounded, in-memory event store for one stateful MCP session, so a client can resume a call's stream with
 * `Last-Event-ID` after the stream closed (a dropped connection, or the server closing it for polling,
 * SEP-1699). Event ids are `<streamId>_<sequence>`; replay sends the events of the same stream after the
 * given one. The store is bounded by event count and by bytes (per session, and over every session through
 * a shared {@link EventStoreBudget}), dropping the oldest events first, and it releases a stream's events
 * once its final response was stored and `resumeWindowMs` passed. An id the store no longer holds (never
 * issued, dropped or released) is unknown: the server refuses to resume from it.
 */
export class InMemoryEventStore implements EventStore, ResumableEventStore {
  private readonly events = new Map<string, StoredEvent>();
  private readonly streams = new Map<string, StoredStream>();
  private readonly maxEvents: number;
  private readonly maxBytes: number;
  private readonly resumeWindowMs: number;
  private readonly budget: EventStoreBudget | undefined;
  private sequence = 0;
  private bytes = 0;
  private closed = false;

  /**
   * @throws ToolInputError when `maxEvents` or `maxBytes` is not a whole number of at least 1, or
   * `resumeWindowMs` is not a number of milliseconds above 0 (at most {@link MAX_TIMER_MS}).
   */
  constructor(options: InMemoryEventStoreOptions = {}) {
    this.maxEvents = wholeNumber('maxEvents', options.maxEvents ?? DEFAULT_MAX_STORED_EVENTS);
    this.maxBytes = wholeNumber('maxBytes', options.maxBytes ?? DEFAULT_MAX_STORED_EVENT_BYTES);
    const window = options.resumeWindowMs ?? DEFAULT_RESUME_WINDOW_MS;
    if (typeof window !== 'number' || !(window > 0) || window > MAX_TIMER_MS) {
      throw new ToolInputError(
        `InMemoryEventStore resumeWindowMs must be a number of milliseconds above 0 and at most ${MAX_TIMER_MS}, got ${String(window)}.`,
      );
    }
    this.resumeWindowMs = window;
    this.budget = options.budget;
  }

  /** How many events are kept. */
  get size(): number {
    return this.events.size;
  }

  /** The bytes of the events kept (each its serialized message plus 100 bytes). */
  get storedBytes(): number {
    return this.bytes;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage | Record<string, unknown>): Promise<string> {
    this.sequence += 1;
    const eventId = `${streamId}_${this.sequence}`;
    if (this.closed) return eventId;
    let json = JSON.stringify(message);
    let bytes = Buffer.byteLength(json) + EVENT_OVERHEAD_BYTES;
    const tooBig = (size: number) =>
      size > this.maxBytes || (this.budget !== undefined && size > this.budget.maxBytes);
    if (tooBig(bytes)) {
      // A response is kept as an error saying it was too big: a resuming client learns the outcome.
      const kept = tooBigToKeep(message as Record<string, unknown>);
      if (kept) {
        json = JSON.stringify(kept);
        bytes = Buffer.byteLength(json) + EVENT_OVERHEAD_BYTES;
      }
      if (!kept || tooBig(bytes)) {
        // Kept streams have no holes: rather than replay the stream without this event, forget the whole
        // stream, so a resume of it is refused.
        this.releaseStream(streamId);
        return eventId;
      }
    }
    let stream = this.streams.get(streamId);
    if (!stream) {
      stream = { events: [], complete: false };
      this.streams.set(streamId, stream);
    }
    const event: StoredEvent = { eventId, streamId, sequence: this.sequence, json, bytes };
    stream.events.push(event);
    this.events.set(eventId, event);
    this.bytes += bytes;
    // Maps iterate in insertion order: the first event is the oldest, of its stream too.
    while (this.events.size > this.maxEvents || this.bytes > this.maxBytes) {
      this.drop(this.events.values().next().value as StoredEvent);
    }
    if (this.budget) event.charged = this.budget.charge(bytes, () => this.drop(event));
    if (isResponse(message)) {
      stream.complete = true;
      // A batch answers on one stream: its last response starts the window.
      if (stream.releaseTimer) clearTimeout(stream.releaseTimer);
      stream.releaseTimer = setTimeout(() => this.releaseStream(streamId), this.resumeWindowMs);
      stream.releaseTimer.unref();
    }
    return eventId;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.get(eventId)?.streamId;
  }

  /** Whether the stream's final response is stored: a resume of it replays everything there is to send. */
  async isStreamComplete(streamId: string): Promise<boolean> {
    return this.streams.get(streamId)?.complete === true;
  }

  /** @throws ToolInputError when the store does not hold `lastEventId` (never issued, dropped or released). */
  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.events.get(lastEventId);
    if (!last) {
      throw new ToolInputError(
        `Unknown or expired event id '${lastEventId.slice(0, 100)}': it was never issued or is no longer kept; start a new stream or re-send the request.`,
      );
    }
    // Events stored while replaying are sent too; events dropped meanwhile are skipped.
    let cursor = last.sequence;
    for (;;) {
      const next = this.streams.get(last.streamId)?.events.find((event) => event.sequence > cursor);
      if (!next) break;
      cursor = next.sequence;
      if (next.json === EMPTY_MESSAGE) continue;
      await send(next.eventId, JSON.parse(next.json) as JSONRPCMessage);
    }
    return last.streamId;
  }

  /**
   * Sends the events of `streamId` after the event id `cursor` of that stream, whether or not the cursor's
   * own event is still kept (see `EventLog.readAfter`); nothing for a cursor of another stream. Resolves
   * whether the store still holds the stream.
   */
  async readEventsAfter(
    streamId: string,
    cursor: string,
    send: (eventId: string, message: JSONRPCMessage) => Promise<void>,
  ): Promise<boolean> {
    const prefix = `${streamId}_`;
    const after = cursor.startsWith(prefix) ? Number(cursor.slice(prefix.length)) : Number.NaN;
    if (!Number.isSafeInteger(after)) return false;
    let sequence = after;
    for (;;) {
      const stream = this.streams.get(streamId);
      if (!stream) return false;
      const next = stream.events.find((event) => event.sequence > sequence);
      if (!next) return true;
      sequence = next.sequence;
      if (next.json === EMPTY_MESSAGE) continue;
      await send(next.eventId, JSON.parse(next.json) as JSONRPCMessage);
    }
  }

  /** Drops every event and timer (the session closed); events stored later are not kept. */
  close(): void {
    this.closed = true;
    for (const streamId of [...this.streams.keys()]) this.releaseStream(streamId);
  }

  /** Forgets one event; the oldest of the session (or of the whole budget) always goes first. */
  private drop(event: StoredEvent): void {
    if (this.events.get(event.eventId) !== event) return;
    this.events.delete(event.eventId);
    this.bytes -= event.bytes;
    if (event.charged) this.budget?.release(event.charged);
    const stream = this.streams.get(event.streamId);
    if (!stream) return;
    const index = stream.events[0] === event ? 0 : stream.events.indexOf(event);
    if (index >= 0) stream.events.splice(index, 1);
    if (stream.events.length === 0) {
      if (stream.releaseTimer) clearTimeout(stream.releaseTimer);
      this.streams.delete(event.streamId);
    }
  }

  private releaseStream(streamId: string): void {
    const stream = this.streams.get(streamId);
    if (!stream) return;
    if (stream.releaseTimer) clearTimeout(stream.releaseTimer);
    this.streams.delete(streamId);
    for (const event of stream.events) {
      this.events.delete(event.eventId);
      this.bytes -= event.bytes;
      if (event.charged) this.budget?.release(event.charged);
    }
  }
}

function wholeNumber(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ToolInputError(
      `InMemoryEventStore ${name} must be a whole number of at least 1, got ${String(value)}.`,
    );
  }
  return value;
}

/** A JSON-RPC response (result or error): the end of the request it answers. */
function isResponse(message: object): boolean {
  return 'id' in message && !('method' in message) && ('result' in message || 'error' in message);
}
