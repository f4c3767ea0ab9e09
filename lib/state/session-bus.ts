import type { SessionStoreDataError } from '../errors/session-store-data-error';
import type { SessionKey } from './session-key';

/**
 * Default byte bound of a session's bus (2 MiB): what a shared bus keeps of one session's messages at most,
 * and so the most one message may take.
 */
export const DEFAULT_SESSION_BUS_MAX_BYTES = 2 * 1024 * 1024;

/** A message on a session's channel: a plain JSON object (it crosses processes as JSON). */
export type SessionBusMessage = Readonly<Record<string, unknown>>;

/** Options of {@link SessionBus.subscribe}. */
export interface SessionBusSubscribeOptions {
  /**
   * Called with a message on the channel that is not a JSON object, or another value on a shared bus that
   * Protolink did not write (it is not passed to the listener, and the messages after it are).
   */
  onError?: (error: SessionStoreDataError) => void;
}

/** A subscription to a session's channel. */
export interface SessionBusSubscription {
  /** Stops delivery to this listener; calling it twice is harmless. */
  unsubscribe(): Promise<void>;
}

/**
 * Carries what must reach the process that waits on a session (a client's answer, a cancel, a log level, a
 * notification for the GET stream it holds). Each message reaches each listener subscribed when it was
 * published exactly once and in order, even across a lost connection on a shared bus (which keeps the
 * messages until read); messages published before a listener subscribed never reach it: the durable state
 * (the {@link EventLog}, the {@link SessionStore}) is the truth, so a listener that subscribes late reads
 * what it missed from the log. A bus is bounded in bytes per session: a shared one drops the oldest messages
 * of a session beyond its bound (its subscribers read them within milliseconds of their publishing), and a
 * message bigger than the bound is refused.
 */
export interface SessionBus {
  /**
   * Publishes a message on the session's channel.
   *
   * @throws SessionBusMessageTooLargeError when the message alone is over the bus's byte bound per session.
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
  /**
   * The session ended (it was deleted): what a shared bus keeps of its messages may go once its subscribers
   * have had a moment to read the last ones. Optional: without it, a shared bus keeps them until they expire.
   *
   * @throws SessionStoreUnavailableError when a shared bus cannot be reached.
   */
  endSession?(key: SessionKey): Promise<void>;
  /** Ends every subscription. */
  close(): Promise<void>;
}
