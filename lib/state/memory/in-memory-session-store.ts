import { SessionLimitError } from '../../errors/session-limit-error';
import { ToolInputError } from '../../errors/tool-input-error';
import type { SessionKey } from '../session-key';
import type {
  NewSessionRecord,
  SessionAdmission,
  SessionRecord,
  SessionRecordChanges,
  SessionStore,
} from '../session-store';

/** Options of {@link InMemorySessionStore}. */
export interface InMemorySessionStoreOptions {
  /** How long a session lives without use, in ms (a whole number of at least 1). */
  idleTimeoutMs: number;
}

interface Entry {
  record: Omit<SessionRecord, 'expiresAt'>;
  expiresAt: number;
  /** The client it was admitted for (counted by `maxSessionsPerClient`), when it was admitted. */
  client?: string;
}

/**
 * The session records of one process, in a map: the default {@link SessionStore}, with no dependency. An
 * expired session is forgotten when it is next looked at, and expired sessions are swept whenever a new one
 * opens, so the map holds no more than the sessions of one idle timeout. The caps of `create` count the
 * sessions of the map that have not expired (an expired one is swept before it is counted).
 */
export class InMemorySessionStore implements SessionStore {
  readonly idleTimeoutMs: number;
  private readonly sessions = new Map<string, Entry>();
  /** The sessions of each admitted client, expired ones not yet swept included. */
  private readonly perClient = new Map<string, number>();
  /** The admitted sessions, expired ones not yet swept included. */
  private admitted = 0;
  private nextSweep = 0;

  /** @throws ToolInputError when `idleTimeoutMs` is not a whole number of at least 1. */
  constructor(options: InMemorySessionStoreOptions) {
    if (!Number.isSafeInteger(options.idleTimeoutMs) || options.idleTimeoutMs < 1) {
      throw new ToolInputError(
        `InMemorySessionStore idleTimeoutMs must be a whole number of at least 1, got ${String(options.idleTimeoutMs)}.`,
      );
    }
    this.idleTimeoutMs = options.idleTimeoutMs;
  }

  /** How many sessions are held (expired ones not yet swept included). */
  get size(): number {
    return this.sessions.size;
  }

  async create(record: NewSessionRecord, admission?: SessionAdmission): Promise<SessionRecord> {
    const now = Date.now();
    this.sweep(now);
    const id = toMapKey(record);
    if (this.live(id, now)) {
      throw new ToolInputError(`A session with id '${record.sessionId.slice(0, 100)}' exists already.`);
    }
    if (admission) this.admit(admission, now);
    const stored: Entry = {
      record: { ...cloneJson(record), createdAt: now },
      expiresAt: now + this.idleTimeoutMs,
      ...(admission ? { client: admission.client } : {}),
    };
    this.sessions.set(id, stored);
    if (admission) {
      this.admitted += 1;
      this.perClient.set(admission.client, (this.perClient.get(admission.client) ?? 0) + 1);
    }
    return toRecord(stored);
  }

  /** @throws SessionLimitError when a cap is reached by sessions that have not expired. */
  private admit(admission: SessionAdmission, now: number): void {
    const full = (): SessionLimitError | undefined =>
      this.admitted >= admission.maxSessions
        ? new SessionLimitError({ limit: 'maxSessions', max: admission.maxSessions })
        : (this.perClient.get(admission.client) ?? 0) >= admission.maxSessionsPerClient
          ? new SessionLimitError({ limit: 'maxSessionsPerClient', max: admission.maxSessionsPerClient })
          : undefined;
    if (!full()) return;
    // Counted with expired sessions not yet swept: sweep them all before refusing.
    this.nextSweep = 0;
    this.sweep(now);
    const refusal = full();
    if (refusal) throw refusal;
  }

  async get(key: SessionKey): Promise<SessionRecord | undefined> {
    const entry = this.live(toMapKey(key), Date.now());
    return entry ? toRecord(entry) : undefined;
  }

  async touch(key: SessionKey): Promise<boolean> {
    const now = Date.now();
    const entry = this.live(toMapKey(key), now);
    if (!entry) return false;
    entry.expiresAt = now + this.idleTimeoutMs;
    return true;
  }

  async update(key: SessionKey, changes: SessionRecordChanges): Promise<boolean> {
    const now = Date.now();
    const entry = this.live(toMapKey(key), now);
    if (!entry) return false;
    if (changes.logLevel !== undefined) entry.record = { ...entry.record, logLevel: changes.logLevel };
    entry.expiresAt = now + this.idleTimeoutMs;
    return true;
  }

  async delete(key: SessionKey): Promise<boolean> {
    const id = toMapKey(key);
    const existed = this.live(id, Date.now()) !== undefined;
    this.forget(id);
    return existed;
  }

  /** The entry when it has not expired; an expired one is forgotten. */
  private live(id: string, now: number): Entry | undefined {
    const entry = this.sessions.get(id);
    if (entry && entry.expiresAt <= now) {
      this.forget(id);
      return undefined;
    }
    return entry;
  }

  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + this.idleTimeoutMs;
    for (const [id, entry] of this.sessions) if (entry.expiresAt <= now) this.forget(id);
  }

  /** Drops an entry and its place under the per-client cap. */
  private forget(id: string): void {
    const entry = this.sessions.get(id);
    if (!entry) return;
    this.sessions.delete(id);
    if (entry.client === undefined) return;
    this.admitted -= 1;
    const left = (this.perClient.get(entry.client) ?? 1) - 1;
    if (left > 0) this.perClient.set(entry.client, left);
    else this.perClient.delete(entry.client);
  }
}

/** The token subject is part of the key: the same id under another subject is another (absent) session. */
function toMapKey(key: SessionKey): string {
  return `${key.tokenSubject ?? ''}\n${key.sessionId}`;
}

function toRecord(entry: Entry): SessionRecord {
  return { ...entry.record, expiresAt: entry.expiresAt };
}

/** Records hold plain JSON, as a shared store would: later changes to the caller's objects do not leak in. */
function cloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
