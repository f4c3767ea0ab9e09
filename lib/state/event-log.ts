import type { SessionKey } from './session-key';

/** What a session's event log holds now. */
export interface EventLogUsage {
  /** Events kept, over every stream of the session. */
  events: number;
  /** Their bytes, as the log counts them (each event's serialized JSON-RPC message plus 100 in memory). */
  bytes: number;
}

/** Bounds of an {@link EventLog}, per session. */
export interface EventLogOptions {
  /** Most events kept (all streams of a session together); the oldest are dropped first (default 1,000). */
  maxEvents?: number;
  /**
   * Most bytes kept (all streams of a session together), counting each event as its serialized JSON-RPC
   * message plus 100 bytes (a shared log may count what its store allocates instead: the Redis log does);
   * the oldest events are dropped first; a response larger than this is kept as a JSON-RPC error for the same
   * request saying so (a resuming client learns the outcome), and any other event larger than this is not
   * kept at all, nor is the rest of its stream (default 8 MiB).
   */
  maxBytes?: number;
  /**
   * How long a stream's events are kept after its final response was stored, in ms, for a client to come
   * back and resume it (default 30 s).
   */
  resumeWindowMs?: number;
}

/** Sends one replayed event to the client. */
export type EventLogSend = (eventId: string, message: Record<string, unknown>) => Promise<void>;

/**
 * The resumable streams of every session: the durable record of what was sent, so a client can resume a
 * stream with `Last-Event-ID` (on any process, when the log is shared). Event ids are `<streamId>_<n>`,
 * unique over all streams of a session; a replay sends only events of the stream the id belongs to. The log
 * is bounded per session in events and in bytes (the oldest go first), and releases a stream's events once
 * its final response was stored and the resume window passed. Every method is scoped by the session key,
 * so one session can never read another's events.
 */
export interface EventLog {
  /**
   * Stores one message of a stream; returns its event id.
   *
   * @throws SessionStoreUnavailableError when a shared log cannot be reached.
   */
  append(key: SessionKey, streamId: string, message: Record<string, unknown>): Promise<string>;
  /**
   * The stream an event id belongs to, or undefined when the session's log does not hold that id (never
   * issued, dropped, released, or issued to another session).
   *
   * @throws SessionStoreUnavailableError when a shared log cannot be reached.
   */
  streamOf(key: SessionKey, eventId: string): Promise<string | undefined>;
  /**
   * Whether the stream's final response is stored, so nothing more will be sent on it.
   *
   * @throws SessionStoreUnavailableError when a shared log cannot be reached.
   */
  isStreamComplete(key: SessionKey, streamId: string): Promise<boolean>;
  /**
   * Sends the events of the stream after `lastEventId` (events stored meanwhile too); returns the stream's id.
   *
   * @throws ToolInputError when the session's log does not hold `lastEventId`.
   * @throws SessionStoreUnavailableError when a shared log cannot be reached.
   * @throws SessionStoreDataError when a stored event is unreadable.
   */
  replayAfter(key: SessionKey, lastEventId: string, send: EventLogSend): Promise<string>;
  /**
   * Sends the events of `streamId` after the event id `cursor` (one of that stream, as {@link replayAfter}
   * sent it), whether or not the cursor's own event is still kept: a stream being followed reads on from where
   * it was, skipping only what the bounds dropped meanwhile, instead of being cut when its cursor is dropped.
   * Resolves whether the log still holds the stream: false once all of it is gone (an event too big for the
   * bounds forgot it, they dropped its every event, or its window passed), and for a cursor of another stream
   * or one that is not an event id (nothing is sent then).
   *
   * @throws SessionStoreUnavailableError when a shared log cannot be reached.
   * @throws SessionStoreDataError when a stored event is unreadable.
   */
  readAfter(key: SessionKey, streamId: string, cursor: string, send: EventLogSend): Promise<boolean>;
  /**
   * What the session's log holds now.
   *
   * @throws SessionStoreUnavailableError when a shared log cannot be reached.
   */
  usage(key: SessionKey): Promise<EventLogUsage>;
  /**
   * Drops every event of the session (it ended); events appended later are still kept.
   *
   * @throws SessionStoreUnavailableError when a shared log cannot be reached.
   */
  deleteSession(key: SessionKey): Promise<void>;
}
