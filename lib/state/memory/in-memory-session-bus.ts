import { SessionBusMessageTooLargeError } from '../../errors/session-bus-message-too-large-error';
import { SessionStoreDataError } from '../../errors/session-store-data-error';
import { ToolInputError } from '../../errors/tool-input-error';
import { DEFAULT_SESSION_BUS_MAX_BYTES } from '../session-bus';
import type {
  SessionBus,
  SessionBusMessage,
  SessionBusSubscribeOptions,
  SessionBusSubscription,
} from '../session-bus';
import type { SessionKey } from '../session-key';

type Listener = (message: SessionBusMessage) => void;

/** Options of {@link InMemorySessionBus}. */
export interface InMemorySessionBusOptions {
  /**
   * Most bytes of one message, its JSON (default 2 MiB): the byte bound per session of a shared bus, which
   * no message may exceed there either; a bigger one is refused with `SessionBusMessageTooLargeError`.
   */
  maxBytes?: number;
}

/**
 * The session bus of one process: listeners in a map. Messages are copied as JSON and delivered after
 * `publish` returns, as they would be across processes, and a message over the byte bound is refused as on a
 * shared bus, so code written against it behaves the same on Redis. It keeps no message once delivered.
 */
export class InMemorySessionBus implements SessionBus {
  private readonly channels = new Map<string, Set<Listener>>();
  private readonly maxBytes: number;

  /** @throws ToolInputError for a `maxBytes` that is not a whole number of at least 1. */
  constructor(options: InMemorySessionBusOptions = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_SESSION_BUS_MAX_BYTES;
    if (!Number.isSafeInteger(this.maxBytes) || this.maxBytes < 1) {
      throw new ToolInputError(
        `InMemorySessionBus maxBytes must be a whole number of at least 1, got ${String(options.maxBytes)}.`,
      );
    }
  }

  /** @throws SessionBusMessageTooLargeError when the message's JSON is over `maxBytes`. */
  async publish(key: SessionKey, message: SessionBusMessage): Promise<void> {
    const json = JSON.stringify(message);
    const bytes = Buffer.byteLength(json);
    if (bytes > this.maxBytes) {
      throw new SessionBusMessageTooLargeError({ sessionId: key.sessionId, bytes, maxBytes: this.maxBytes });
    }
    const listeners = this.channels.get(toChannel(key));
    if (!listeners || listeners.size === 0) return;
    for (const listener of [...listeners]) {
      queueMicrotask(() => {
        if (!listeners.has(listener)) return;
        try {
          listener(JSON.parse(json) as SessionBusMessage);
        } catch {
          // A listener that throws must not keep the message from the others, nor reach the publisher.
        }
      });
    }
  }

  async subscribe(
    key: SessionKey,
    listener: Listener,
    options: SessionBusSubscribeOptions = {},
  ): Promise<SessionBusSubscription> {
    const channel = toChannel(key);
    let listeners = this.channels.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.channels.set(channel, listeners);
    }
    // Each subscription is its own entry, so one listener subscribed twice is called twice and unsubscribed once.
    const entry: Listener = (message) => {
      if (typeof message !== 'object' || message === null || Array.isArray(message)) {
        options.onError?.(
          new SessionStoreDataError({
            sessionId: key.sessionId,
            reason: 'a bus message that is not a JSON object',
          }),
        );
        return;
      }
      listener(message);
    };
    listeners.add(entry);
    return {
      unsubscribe: async () => {
        listeners.delete(entry);
        if (listeners.size === 0 && this.channels.get(channel) === listeners) this.channels.delete(channel);
      },
    };
  }

  async close(): Promise<void> {
    this.channels.clear();
  }
}

function toChannel(key: SessionKey): string {
  return `${key.tokenSubject ?? ''}\n${key.sessionId}`;
}
