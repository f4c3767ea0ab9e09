import { ToolInputError } from '../errors/tool-input-error';

/** Options of {@link EventStoreBudget}. */
export interface EventStoreBudgetOptions {
  /** Most bytes the stores sharing the budget keep together; the oldest events go first (default 64 MiB). */
  maxBytes?: number;
}

/** Default of {@link EventStoreBudgetOptions.maxBytes}: 64 MiB. */
export const DEFAULT_MAX_EVENT_STORE_BYTES = 64 * 1024 * 1024;

/** One event charged to an {@link EventStoreBudget}, as its store holds it. */
export interface EventStoreBudgetEntry {
  readonly bytes: number;
}

interface Entry extends EventStoreBudgetEntry {
  readonly evict: () => void;
  older: Entry | undefined;
  newer: Entry | undefined;
  released: boolean;
}

/**
 * A byte bound shared by the `InMemoryEventStore`s of every session of one server, so the events kept
 * for resumption stay bounded over the whole process, not only per session. When a new event takes the
 * total over the bound, the oldest events of any session are evicted first (a client resuming from one of
 * them is then told its event id is unknown or expired).
 */
export class EventStoreBudget {
  /** The bound, in bytes. */
  readonly maxBytes: number;
  private used = 0;
  private oldest: Entry | undefined;
  private newest: Entry | undefined;

  /** @throws ToolInputError when `maxBytes` is not a whole number of at least 1. */
  constructor(options: EventStoreBudgetOptions = {}) {
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_EVENT_STORE_BYTES;
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
      throw new ToolInputError(
        `EventStoreBudget maxBytes must be a whole number of at least 1, got ${String(maxBytes)}.`,
      );
    }
    this.maxBytes = maxBytes;
  }

  /** The bytes of the events held now, over every store sharing the budget. */
  get usedBytes(): number {
    return this.used;
  }

  /**
   * Charges a new event, then evicts the oldest events (calling their `evict`) until the total is within the
   * bound again. The new event itself is never evicted here: a store keeps no event larger than the bound.
   */
  charge(bytes: number, evict: () => void): EventStoreBudgetEntry {
    const entry: Entry = { bytes, evict, older: this.newest, newer: undefined, released: false };
    if (this.newest) this.newest.newer = entry;
    else this.oldest = entry;
    this.newest = entry;
    this.used += bytes;
    while (this.used > this.maxBytes && this.oldest !== undefined && this.oldest !== entry) {
      const victim = this.oldest;
      // Released before its store hears of it, so a store that fails to release it cannot loop forever.
      this.release(victim);
      victim.evict();
    }
    return entry;
  }

  /** Gives back the bytes of an event its store dropped; releasing an entry twice is harmless. */
  release(charged: EventStoreBudgetEntry): void {
    const entry = charged as Entry;
    if (entry.released) return;
    entry.released = true;
    if (entry.older) entry.older.newer = entry.newer;
    else this.oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older;
    entry.older = undefined;
    entry.newer = undefined;
    this.used -= entry.bytes;
  }
}
