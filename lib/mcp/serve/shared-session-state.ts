import type { TaskStore } from '../../tasks/task-store';
import type { CallLeases } from '../../state/call-leases';
import type { EventLog } from '../../state/event-log';
import type { SessionBus } from '../../state/session-bus';
import type { SessionStore } from '../../state/session-store';

/**
 * The state every process serving one agent shares (the Redis backend of `protolink/redis` is one): with
 * it, any process can answer any request of any live session. The MCP endpoint talks only to these three
 * seams, never to Redis.
 */
export interface SharedSessionState {
  /** The session records. */
  readonly sessions: SessionStore;
  /** The resumable streams' events. */
  readonly events: EventLog;
  /** The session channels (wake-ups: client answers, cancels, notifications for a GET stream). */
  readonly bus: SessionBus;
  /**
   * Heartbeats and stream owners: with them, a client resuming a call whose process died gets an error
   * for it once the heartbeat runs out; without them it waits until it gives up.
   */
  readonly leases?: CallLeases;
  /** The tasks, shared like the sessions (the served tasks' store unless the server is given one). */
  readonly tasks?: TaskStore;
}
