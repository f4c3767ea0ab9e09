import { ToolInputError } from '../../errors/tool-input-error';
import { EventStoreBudget } from '../event-store-budget';
import { InMemoryEventStore } from './in-memory-event-store';
import type { EventLog, EventLogOptions, EventLogSend, EventLogUsage } from '../event-log';
import type { SessionKey } from '../session-key';

/** Options of {@link InMemoryEventLog}. */
export interface InMemoryEventLogOptions extends EventLogOptions {
  /** Most bytes kept over every session together; the oldest events of any session go first (default 64 MiB). */
  maxTotalBytes?: number;
}

/**
 * The event log of one process: one {@link InMemoryEventStore} per session (today's store, unchanged), all
 * sharing one {@link EventStoreBudget}, so memory stays bounded per session and over the process.
 */
export class InMemoryEventLog implements EventLog {
  private readonly stores = new Map<string, InMemoryEventStore>();
  private readonly storeOptions: ConstructorParameters<typeof InMemoryEventStore>[0];

  /** @throws ToolInputError for a bound that is not a whole number of at least 1 or a bad window. */
  constructor(options: InMemoryEventLogOptions = {}) {
    this.storeOptions = {
      maxEvents: options.maxEvents,
      maxBytes: options.maxBytes,
      resumeWindowMs: options.resumeWindowMs,
      budget: new EventStoreBudget({ maxBytes: options.maxTotalBytes }),
    };
    // Built once now so bad options fail here, not at the first event.
    new InMemoryEventStore(this.storeOptions).close();
  }

  async append(key: SessionKey, streamId: string, message: Record<string, unknown>): Promise<string> {
    const id = toMapKey(key);
    let store = this.stores.get(id);
    if (!store) {
      store = new InMemoryEventStore(this.storeOptions);
      this.stores.set(id, store);
    }
    return store.storeEvent(streamId, message);
  }

  async streamOf(key: SessionKey, eventId: string): Promise<string | undefined> {
    return this.stores.get(toMapKey(key))?.getStreamIdForEventId(eventId);
  }

  async isStreamComplete(key: SessionKey, streamId: string): Promise<boolean> {
    return (await this.stores.get(toMapKey(key))?.isStreamComplete(streamId)) === true;
  }

  async replayAfter(key: SessionKey, lastEventId: string, send: EventLogSend): Promise<string> {
    const store = this.stores.get(toMapKey(key));
    if (!store) {
      throw new ToolInputError(
        `Unknown or expired event id '${lastEventId.slice(0, 100)}': it was never issued or is no longer kept; start a new stream or re-send the request.`,
      );
    }
    return store.replayEventsAfter(lastEventId, {
      send: (eventId, message) => send(eventId, message as Record<string, unknown>),
    });
  }

  async readAfter(key: SessionKey, streamId: string, cursor: string, send: EventLogSend): Promise<boolean> {
    const store = this.stores.get(toMapKey(key));
    if (!store) return false;
    return store.readEventsAfter(streamId, cursor, (eventId, message) =>
      send(eventId, message as Record<string, unknown>),
    );
  }

  async usage(key: SessionKey): Promise<EventLogUsage> {
    const store = this.stores.get(toMapKey(key));
    return { events: store?.size ?? 0, bytes: store?.storedBytes ?? 0 };
  }

  async deleteSession(key: SessionKey): Promise<void> {
    const id = toMapKey(key);
    this.stores.get(id)?.close();
    this.stores.delete(id);
  }
}

function toMapKey(key: SessionKey): string {
  return `${key.tokenSubject ?? ''}\n${key.sessionId}`;
}
