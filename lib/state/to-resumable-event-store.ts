import type { ResumableEventStore } from './resumable-event-store';
import type { EventLog } from './event-log';
import type { SessionKey } from './session-key';

/**
 * Returns one session's view of an {@link EventLog} as the `ResumableEventStore` the MCP endpoint takes, so
 * any event log (in memory or shared) can back a session's resumable streams. Closing it deletes the
 * session's events: it is closed when the session ends.
 */
export function toResumableEventStore(log: EventLog, key: SessionKey): ResumableEventStore {
  return {
    storeEvent: (streamId, message) => log.append(key, streamId, message),
    getStreamIdForEventId: (eventId) => log.streamOf(key, eventId),
    isStreamComplete: (streamId) => log.isStreamComplete(key, streamId),
    replayEventsAfter: (lastEventId, { send }) => log.replayAfter(key, lastEventId, send),
    close: () => log.deleteSession(key),
  };
}
