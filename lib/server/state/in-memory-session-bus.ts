import { SessionStoreDataError } from '../../errors/session-store-data-error';
import type {
  SessionBus,
  SessionBusMessage,
  SessionBusSubscribeOptions,
  SessionBusSubscription,
} from './session-bus';
import type { SessionKey } from './session-key';

type Listener = (message: SessionBusMessage) => void;

/**
 * The session bus of one process: listeners in a map. Messages are copied as JSON and delivered after
 * `publish` returns, as they would be across processes, so code written against it behaves the same on Redis.
 */
export class InMemorySessionBus implements SessionBus {
  private readonly channels = new Map<string, Set<Listener>>();

  async publish(key: SessionKey, message: SessionBusMessage): Promise<void> {
    const listeners = this.channels.get(toChannel(key));
    if (!listeners || listeners.size === 0) return;
    const json = JSON.stringify(message);
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
