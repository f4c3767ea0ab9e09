import { SessionStoreDataError } from '../errors/session-store-data-error';
import type {
  SessionBus,
  SessionBusMessage,
  SessionBusSubscribeOptions,
  SessionBusSubscription,
} from '../server/state/session-bus';
import type { SessionKey } from '../server/state/session-key';
import type { RedisCommands } from './redis-commands';
import { assertStorableSessionKey, toSessionKeys } from './redis-keys';

/** Options of {@link RedisSessionBus}. */
export interface RedisSessionBusOptions {
  /** The connection commands are published on. */
  commands: RedisCommands;
  /** The connection used for subscriptions only (a subscribed connection can send nothing else). */
  subscriber: RedisCommands;
  /** Prefix of every channel (default `protolink:`). */
  keyPrefix?: string;
}

type RawListener = (message: string, channel: string) => void;

/**
 * The session bus on Redis pub/sub: one channel per session (`<prefix>bus:<subject>:{<session>}`), messages
 * as JSON, subscriptions on a dedicated connection that node-redis subscribes again after a reconnect.
 * Messages published while a process is disconnected are lost to it: the durable log is the truth, the bus
 * only wakes.
 */
export class RedisSessionBus implements SessionBus {
  private readonly commands: RedisCommands;
  private readonly subscriber: RedisCommands;
  private readonly keyPrefix: string;
  private readonly subscriptions = new Set<{ channel: string; raw: RawListener }>();

  constructor(options: RedisSessionBusOptions) {
    this.commands = options.commands;
    this.subscriber = options.subscriber;
    this.keyPrefix = options.keyPrefix ?? 'protolink:';
  }

  async publish(key: SessionKey, message: SessionBusMessage): Promise<void> {
    assertStorableSessionKey(key);
    await this.commands.send(['PUBLISH', this.channelOf(key), JSON.stringify(message)], key.sessionId);
  }

  async subscribe(
    key: SessionKey,
    listener: (message: SessionBusMessage) => void,
    options: SessionBusSubscribeOptions = {},
  ): Promise<SessionBusSubscription> {
    assertStorableSessionKey(key);
    const channel = this.channelOf(key);
    const raw: RawListener = (text) => {
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        message = undefined;
      }
      if (typeof message !== 'object' || message === null || Array.isArray(message)) {
        options.onError?.(
          new SessionStoreDataError({
            sessionId: key.sessionId,
            reason: 'a bus message that is not a JSON object',
            provider: 'redis',
          }),
        );
        return;
      }
      try {
        listener(message as SessionBusMessage);
      } catch {
        // A listener that throws must not reach the connection (node-redis would report it as its own error).
      }
    };
    await this.subscriber.guard(() => this.subscriber.client.subscribe(channel, raw));
    const subscription = { channel, raw };
    this.subscriptions.add(subscription);
    return {
      unsubscribe: async () => {
        if (!this.subscriptions.delete(subscription)) return;
        await this.subscriber.guard(() => this.subscriber.client.unsubscribe(channel, raw));
      },
    };
  }

  /** Ends every subscription (the connection itself is closed by the backend). */
  async close(): Promise<void> {
    const subscriptions = [...this.subscriptions];
    this.subscriptions.clear();
    await Promise.allSettled(
      subscriptions.map(({ channel, raw }) => this.subscriber.client.unsubscribe(channel, raw)),
    );
  }

  private channelOf(key: SessionKey): string {
    return toSessionKeys(this.keyPrefix, key).channel;
  }
}
