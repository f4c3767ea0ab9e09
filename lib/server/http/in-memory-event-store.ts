import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ToolInputError } from '../../errors/tool-input-error';

/** Options of {@link InMemoryEventStore}. */
export interface InMemoryEventStoreOptions {
  /** Most events kept (all streams of the session together); the oldest are dropped first (default 1,000). */
  maxEvents?: number;
}

/** Default of {@link InMemoryEventStoreOptions.maxEvents}. */
export const DEFAULT_MAX_STORED_EVENTS = 1_000;

interface StoredEvent {
  readonly streamId: string;
  readonly sequence: number;
  readonly message: JSONRPCMessage;
}

/**
 * A bounded, in-memory event store for one stateful MCP session, so a client can resume a call's stream with
 * `Last-Event-ID` after the stream closed (a dropped connection, or the server closing it for polling,
 * SEP-1699). Event ids are `<streamId>_<sequence>`; replay sends the events of the same stream after the
 * given one. Events older than the newest `maxEvents` are forgotten: resuming from one of them replays
 * what is left.
 */
export class InMemoryEventStore implements EventStore {
  private readonly events = new Map<string, StoredEvent>();
  private readonly maxEvents: number;
  private sequence = 0;

  /** @throws ToolInputError when `maxEvents` is not a whole number of at least 1. */
  constructor(options: InMemoryEventStoreOptions = {}) {
    const maxEvents = options.maxEvents ?? DEFAULT_MAX_STORED_EVENTS;
    if (!Number.isSafeInteger(maxEvents) || maxEvents < 1) {
      throw new ToolInputError(
        `InMemoryEventStore maxEvents must be a whole number of at least 1, got ${String(maxEvents)}.`,
      );
    }
    this.maxEvents = maxEvents;
  }

  /** How many events are kept. */
  get size(): number {
    return this.events.size;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    this.sequence += 1;
    const eventId = `${streamId}_${this.sequence}`;
    this.events.set(eventId, { streamId, sequence: this.sequence, message });
    // Maps iterate in insertion order: the first key is the oldest event.
    while (this.events.size > this.maxEvents) {
      const oldest = this.events.keys().next().value as string;
      this.events.delete(oldest);
    }
    return eventId;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.get(eventId)?.streamId ?? parseEventId(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const parsed = parseEventId(lastEventId);
    if (!parsed) throw new ToolInputError(`Unknown event id '${lastEventId.slice(0, 100)}'.`);
    for (const [eventId, event] of [...this.events]) {
      if (event.streamId !== parsed.streamId || event.sequence <= parsed.sequence) continue;
      // The priming event of a stream carries no message; it only marks a resumption point.
      if (Object.keys(event.message).length === 0) continue;
      await send(eventId, event.message);
    }
    return parsed.streamId;
  }
}

function parseEventId(eventId: string): { streamId: string; sequence: number } | undefined {
  const separator = eventId.lastIndexOf('_');
  if (separator <= 0) return undefined;
  const sequence = Number(eventId.slice(separator + 1));
  if (!Number.isSafeInteger(sequence) || sequence < 1) return undefined;
  return { streamId: eventId.slice(0, separator), sequence };
}
