import type { SessionKey } from './session-key';

/** One stateful MCP session as every process serving it needs to know it. */
export interface SessionRecord extends SessionKey {
  /** The protocol version negotiated at initialize. */
  readonly protocolVersion: string;
  /** The client's capabilities, as it declared them at initialize. */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /** The client's implementation info (`name`, `version`, …), as it declared it at initialize. */
  readonly clientInfo: Readonly<Record<string, unknown>>;
  /** The level set by `logging/setLevel`, when the client set one. */
  readonly logLevel?: string;
  /** When the session was opened (ms since the epoch). */
  readonly createdAt: number;
  /** When the session expires unless it is used before (ms since the epoch, as of the read). */
  readonly expiresAt: number;
}

/** What a new session is opened with. */
export type NewSessionRecord = Omit<SessionRecord, 'createdAt' | 'expiresAt'>;

/**
 * The caps a new session must fit under, counted over every session the store holds (over every process,
 * when the store is shared): a session counts from its `create` until it is deleted or expires.
 */
export interface SessionAdmission {
  /** Most sessions open at once (a whole number of at least 1). */
  readonly maxSessions: number;
  /** Most sessions open at once from one client (a whole number of at least 1). */
  readonly maxSessionsPerClient: number;
  /** Who opens the session (an opaque id, such as a hash of the client's address): only compared. */
  readonly client: string;
}

/** The fields of a session that change after initialize. */
export interface SessionRecordChanges {
  /** The level set by `logging/setLevel`. */
  logLevel?: string;
}

/**
 * The session records of one server (or of every process serving one agent, when the store is shared). A
 * session expires after `idleTimeoutMs` without use; every read or change through `touch` or `update`
 * starts that time again, and nothing revives an expired session. A session asked for with another token
 * subject than the one it was opened with is refused exactly like an unknown one, so a stolen session id
 * tells its holder nothing.
 */
export interface SessionStore {
  /** How long a session lives without use (ms). */
  readonly idleTimeoutMs: number;
  /**
   * Opens a session; with `admission`, only when it fits under the caps (checked and counted in one atomic
   * step, so processes sharing the store cannot overshoot them together). A session opened without
   * `admission` is not counted.
   *
   * @throws SessionLimitError when a cap of `admission` is reached (nothing is created).
   * @throws ToolInputError when a session with that id exists.
   * @throws SessionStoreUnavailableError when a shared store cannot be reached.
   */
  create(record: NewSessionRecord, admission?: SessionAdmission): Promise<SessionRecord>;
  /**
   * Returns the session, or undefined when it does not exist (never did, deleted, expired, or opened with
   * another token subject). Reading does not extend its life: call `touch` for that.
   *
   * @throws SessionStoreUnavailableError when a shared store cannot be reached.
   * @throws SessionStoreDataError when the stored record is unreadable.
   */
  get(key: SessionKey): Promise<SessionRecord | undefined>;
  /**
   * Starts the session's idle time again; returns false (and changes nothing) when it does not exist.
   *
   * @throws SessionStoreUnavailableError when a shared store cannot be reached.
   */
  touch(key: SessionKey): Promise<boolean>;
  /**
   * Changes fields of the session and starts its idle time again; returns false (and creates nothing)
   * when it does not exist.
   *
   * @throws SessionStoreUnavailableError when a shared store cannot be reached.
   */
  update(key: SessionKey, changes: SessionRecordChanges): Promise<boolean>;
  /**
   * Deletes the session (and its place under the caps); returns whether it existed.
   *
   * @throws SessionStoreUnavailableError when a shared store cannot be reached.
   */
  delete(key: SessionKey): Promise<boolean>;
}

/** How long a session lives without a request, in ms, unless a server says otherwise (30 minutes). */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
