/**
 * Stores the events of a stateful MCP session's streams so a client can resume one with `Last-Event-ID`
 * (the MCP SDK's `EventStore`, restated here so the option types never depend on the SDK's declarations).
 */
export interface ResumableEventStore {
  /** Stores one message of a stream; returns its event id. */
  storeEvent(streamId: string, message: Record<string, unknown>): Promise<string>;
  /** The stream an event id belongs to, when known. */
  getStreamIdForEventId?(eventId: string): Promise<string | undefined>;
  /** Sends the stream's events after `lastEventId`; returns the stream's id. */
  replayEventsAfter(
    lastEventId: string,
    options: { send: (eventId: string, message: Record<string, unknown>) => Promise<void> },
  ): Promise<string>;
}
