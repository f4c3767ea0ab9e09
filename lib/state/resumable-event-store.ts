/**
 * Stores the events of a stateful MCP session's streams so a client can resume one with `Last-Event-ID`
 * (the MCP SDK's `EventStore`, restated here so the option types never depend on the SDK's declarations).
 */
export interface ResumableEventStore {
  /** Stores one message of a stream; returns its event id. */
  storeEvent(streamId: string, message: Record<string, unknown>): Promise<string>;
  /**
   * The stream an event id belongs to, or undefined when the store does not hold that id (never issued,
   * dropped or expired): the server then answers the resume with 400 and opens no stream. Without this
   * method the server cannot tell made-up ids from real ones.
   */
  getStreamIdForEventId?(eventId: string): Promise<string | undefined>;
  /** Sends the stream's events after `lastEventId`; returns the stream's id. */
  replayEventsAfter(
    lastEventId: string,
    options: { send: (eventId: string, message: Record<string, unknown>) => Promise<void> },
  ): Promise<string>;
  /**
   * Whether the stream's final response is stored, so nothing more will be sent on it: a resume of it is
   * then answered with the replay and closed, instead of held open until the client lets go.
   */
  isStreamComplete?(streamId: string): Promise<boolean>;
  /** Called once when the session closes: its events can all be dropped. */
  close?(): void | Promise<void>;
}
