import type { SessionStoreDataError } from '../../errors/session-store-data-error';
import type { SessionKey } from './session-key';

/** A message on a session's channel: a plain JSON object (it crosses processes as JSON). */
export type SessionBusMessage = Readonly<Record<string, unknown>>;

/** Options of {@link SessionBus.subscribe}. */
export interface SessionBusSubscribeOptions {
  /** Called with a message on the channel that is not a JSON object (it is not passed to the listener). */
  onError?: (error: SessionStoreDataError) => void;
}

/** A subscription to a session's channel. */
export interface SessionBusSubscription {
  /** Stops delivery to this listener; calling it twice is harmless. */
  unsubscribe(): Promise<void>;
}

/**
 * Wakes the process that waits on a session (a client's answer, a cancel, a notification for the GET
 * stream it holds). Delivery is at most once and only to listeners subscribed at the time: the durable
 * state (the {@link EventLog}, the {@link SessionStore}) is the truth and the bus only wakes, so a listener
 * that subscribes late reads what it missed from the log.
 */
export interface SessionBus {
  /**
   * Publishes a message on the session's channel.
   *
   * @throws SessionStoreUnavailableError when a shared bus cannot be reached.
   */
  publish(key: SessionKey, message: SessionBusMessage): Promise<void>;
  /**
   * Calls `listener` with every message published on the session's channel from now on.
   *
   * @throws SessionStoreUnavailableError when a shared bus cannot be reached.
   */
  subscribe(
    key: SessionKey,
    listener: (message: SessionBusMessage) => void,
    options?: SessionBusSubscribeOptions,
  ): Promise<SessionBusSubscription>;
  /** Ends every subscription. */
  close(): Promise<void>;
}
