import { EventStoreBudget } from '../../state/event-store-budget';
import { InMemoryEventStore } from '../../state/memory/in-memory-event-store';

/** Options of {@link createInMemoryEventStoreFactory}. */
export interface InMemoryEventStoreFactoryOptions {
  /** Most bytes of events kept per session (default 8 MiB). */
  maxBytesPerSession?: number;
  /** Most bytes of events kept over every store the factory makes, together (default 64 MiB). */
  maxBytes?: number;
  /** How long a stream's events stay resumable after its final response was stored, in ms (default 30 s). */
  resumeWindowMs?: number;
  /** Most events kept per session (default 1,000). */
  maxEvents?: number;
}

/**
 * Returns an `eventStore` factory giving each session its own {@link InMemoryEventStore}, all of them
 * sharing one {@link EventStoreBudget}: memory stays bounded per session and over the whole server. The
 * default event store of `startAgentServer` and `createAgentRequestHandler`.
 *
 * @throws ToolInputError for a bound that is not a whole number of at least 1 or a window that is not a
 * positive number of milliseconds (checked here, before any session opens).
 */
export function createInMemoryEventStoreFactory(
  options: InMemoryEventStoreFactoryOptions = {},
): () => InMemoryEventStore {
  const budget = new EventStoreBudget({ maxBytes: options.maxBytes });
  const storeOptions = {
    maxEvents: options.maxEvents,
    maxBytes: options.maxBytesPerSession,
    resumeWindowMs: options.resumeWindowMs,
    budget,
  };
  // Built once now so bad options fail at start, not at the first session.
  new InMemoryEventStore(storeOptions).close();
  return () => new InMemoryEventStore(storeOptions);
}
