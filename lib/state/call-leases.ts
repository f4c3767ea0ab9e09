import type { SessionKey } from './session-key';

/** Which process runs the requests of a stream. */
export interface StreamOwner {
  /** The process (its instance id). */
  readonly instanceId: string;
  /** The JSON-RPC ids of the client's requests answered on the stream. */
  readonly requestIds: readonly (string | number)[];
}

/**
 * Who runs what, so a process can tell a call whose process died from one still running: each process
 * renews a heartbeat, and each stream records the process that runs its requests. A resumed stream whose
 * owner's heartbeat ran out gets an error for its unanswered requests instead of an endless wait.
 */
export interface CallLeases {
  /**
   * Marks the process alive for `ttlMs` from now (call again before it runs out).
   *
   * @throws SessionStoreUnavailableError when a shared store cannot be reached.
   */
  heartbeat(instanceId: string, ttlMs: number): Promise<void>;
  /**
   * Whether the process's last heartbeat has not run out.
   *
   * @throws SessionStoreUnavailableError when a shared store cannot be reached.
   */
  isAlive(instanceId: string): Promise<boolean>;
  /**
   * Records the owner of a session's stream, kept for `ttlMs`.
   *
   * @throws SessionStoreUnavailableError when a shared store cannot be reached.
   */
  claimStream(key: SessionKey, streamId: string, owner: StreamOwner, ttlMs: number): Promise<void>;
  /**
   * The owner of a session's stream, or undefined when none was recorded (or it expired).
   *
   * @throws SessionStoreUnavailableError when a shared store cannot be reached.
   * @throws SessionStoreDataError when the stored owner is unreadable.
   */
  streamOwner(key: SessionKey, streamId: string): Promise<StreamOwner | undefined>;
  /**
   * Forgets the owner of a stream whose requests were all answered (nothing is left to tell lost), so claims
   * do not outlive their calls by the idle timeout. Optional: without it, claims expire on their own.
   *
   * @throws SessionStoreUnavailableError when a shared store cannot be reached.
   */
  releaseStream?(key: SessionKey, streamId: string): Promise<void>;
}
