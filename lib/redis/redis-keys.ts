import { ToolInputError } from '../errors/tool-input-error';
import type { SessionKey } from '../state/session-key';

/** Visible ASCII (as MCP session ids are) but for the braces that delimit the id in a key's hash tag. */
const SESSION_ID = /^[\x21-\x7a\x7c\x7e]{1,256}$/;
/** A token subject is a hash (or another plain identifier) the caller chose: no separators. */
const TOKEN_SUBJECT = /^[A-Za-z0-9._=+/-]{1,200}$/;
/** Stream ids of the MCP SDK are UUIDs and `_GET_stream`. */
const STREAM_ID = /^[A-Za-z0-9_-]{1,200}$/;

/** Whether the key names a session this store can hold (a malformed one is simply not there). */
export function isStorableSessionKey(key: SessionKey): boolean {
  return (
    typeof key.sessionId === 'string' &&
    SESSION_ID.test(key.sessionId) &&
    (key.tokenSubject === undefined ||
      (typeof key.tokenSubject === 'string' && TOKEN_SUBJECT.test(key.tokenSubject)))
  );
}

/** @throws ToolInputError when the session id or token subject cannot be part of a key. */
export function assertStorableSessionKey(key: SessionKey): void {
  if (!isStorableSessionKey(key)) {
    throw new ToolInputError(
      `A Redis-backed session needs an id of 1-256 visible ASCII characters without braces and a token subject of 1-200 of [A-Za-z0-9._=+/-], got id '${String(key.sessionId).slice(0, 100)}'.`,
    );
  }
}

/** Whether a stream id can be part of a key. */
export function isStorableStreamId(streamId: string): boolean {
  return typeof streamId === 'string' && STREAM_ID.test(streamId);
}

/**
 * The keys of one session. Each carries the token subject (empty without auth) and the session id, the id
 * as the hash tag (`{id}`) so a session's keys live on one Redis Cluster slot:
 * `<prefix>session:<subject>:{<id>}` (hash), `<prefix>log:<subject>:{<id>}` (hash of counters) with
 * `…:order` (sorted set), `…:done` (sorted set) and `…:stream:<streamId>` (one Redis Stream per stream), the
 * channel `<prefix>bus:<subject>:{<id>}`, the bus's durable log `<prefix>bus:<subject>:{<id>}:log` (a Redis
 * Stream) and its counters `…:log:counters` (hash). `tail` is `<subject>:{<id>}`, which the scripts use to
 * name the keys of a session they were not given (the byte budget of the prefix drops any session's oldest).
 */
export function toSessionKeys(prefix: string, key: SessionKey) {
  const tail = `${key.tokenSubject ?? ''}:{${key.sessionId}}`;
  const log = `${prefix}log:${tail}`;
  return {
    tail,
    session: `${prefix}session:${tail}`,
    log,
    order: `${log}:order`,
    done: `${log}:done`,
    streamBase: `${log}:stream:`,
    channel: `${prefix}bus:${tail}`,
    busLog: `${prefix}bus:${tail}:log`,
    busCounters: `${prefix}bus:${tail}:log:counters`,
  };
}

/**
 * The keys that count the sessions of a prefix against the caps, all under the hash tag `{caps}` so one
 * script reaches them on Redis Cluster: `<prefix>sessions:{caps}` (sorted set: each admitted session, by
 * the key tail of its record, scored by when it expires), `…:clients` (hash: sessions per client) and
 * `…:client-of` (hash: the client of each admitted session).
 */
export function toSessionCapKeys(prefix: string) {
  const members = `${prefix}sessions:{caps}`;
  return { members, clients: `${members}:clients`, clientOf: `${members}:client-of` };
}

/** The member of a session in the cap keys: the tail of its record's key. */
export function toSessionCapMember(key: SessionKey): string {
  return `${key.tokenSubject ?? ''}:{${key.sessionId}}`;
}

/**
 * The keys of a prefix's byte budget, shared by every session's event log and bus log under it:
 * `<prefix>budget` (hash: the bytes charged) and `<prefix>budget:order` (sorted set: what is charged, oldest
 * first). Every write of a log touches them, so the backend needs one Redis (or one primary), not a Cluster.
 */
export function toBudgetKeys(prefix: string): { budget: string; order: string } {
  return { budget: `${prefix}budget`, order: `${prefix}budget:order` };
}
