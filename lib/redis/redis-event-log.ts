import { SessionStoreDataError } from '../errors/session-store-data-error';
import { ToolInputError } from '../errors/tool-input-error';
import { DEFAULT_MAX_EVENT_STORE_BYTES } from '../state/event-store-budget';
import {
  DEFAULT_MAX_STORED_EVENT_BYTES,
  DEFAULT_MAX_STORED_EVENTS,
  DEFAULT_RESUME_WINDOW_MS,
} from '../state/memory/in-memory-event-store';
import type { EventLog, EventLogOptions, EventLogSend, EventLogUsage } from '../state/event-log';
import type { SessionKey } from '../state/session-key';
import { APPEND, DELETE_SESSION, HAS_EVENT, IS_COMPLETE, READ_AFTER, USAGE } from './event-log-scripts';
import { tooBigToKeep } from '../state/too-big-to-keep';
import type { RedisCommands, RedisScript } from './redis-commands';
import { redisEventCost, redisStreamCost } from './redis-event-cost';
import {
  assertStorableSessionKey,
  isStorableSessionKey,
  isStorableStreamId,
  toBudgetKeys,
  toSessionKeys,
} from './redis-keys';

/** The priming event of a stream carries no message; it only marks a resumption point. */
const EMPTY_MESSAGE = '{}';

/** Entries read per round trip while replaying. */
const REPLAY_PAGE = 100;

/** Options of {@link RedisEventLog}. */
export interface RedisEventLogOptions extends EventLogOptions {
  /** The connection (see `createRedisBackend`). */
  commands: RedisCommands;
  /** Prefix of every key (default `protolink:`). */
  keyPrefix?: string;
  /**
   * How long a session's log outlives its last use, in ms: a backstop for sessions that end without being
   * deleted (a crashed process). Use the session idle timeout or more (default 30 min).
   */
  keyTtlMs?: number;
  /**
   * Most bytes the event logs and bus logs of every session under the key prefix take in Redis together (the
   * prefix's budget, shared with the `RedisSessionBus` of the same prefix; default 64 MiB): beyond it the
   * oldest events or bus logs of any session are dropped first. At least `maxBytes`.
   */
  maxTotalBytes?: number;
}

/**
 * The event log on Redis, shared by every process serving the agent. Per session: a Redis Stream per MCP
 * stream (`<prefix>log:<subject>:{<session>}:stream:<streamId>`, XADD with the session's sequence number as
 * its entry id, XRANGE to replay), a hash of counters (`…log:<subject>:{<session>}`: sequence, events,
 * bytes, and each stream's own cost), a sorted set ordering the session's events oldest first (`…:order`, for the bounds) and one of
 * complete streams by release time (`…:done`). Every write is one Lua script, so the bounds hold under
 * concurrent writers; streams whose window passed are released at the next read or write of the session,
 * and every key expires `keyTtlMs` after the session's last use. Bytes are counted as Redis allocates them
 * (`redisEventCost`, `redisStreamCost`), so `maxBytes` bounds what the session's log keys take in Redis, and
 * `maxTotalBytes` what the logs of every session of the prefix take together (`<prefix>budget`, whose
 * order drops the oldest event of any session first; see log-budget-lua.ts).
 */
export class RedisEventLog implements EventLog {
  private readonly commands: RedisCommands;
  private readonly keyPrefix: string;
  private readonly maxEvents: number;
  private readonly maxBytes: number;
  private readonly resumeWindowMs: number;
  private readonly keyTtlMs: number;
  private readonly maxTotalBytes: number;

  /**
   * @throws ToolInputError for a bound, window or expiry that is not a whole number of at least 1, a
   * `maxBytes` too small to keep one stream with one event, or a `maxTotalBytes` under `maxBytes`.
   */
  constructor(options: RedisEventLogOptions) {
    this.commands = options.commands;
    this.keyPrefix = options.keyPrefix ?? 'protolink:';
    this.maxEvents = wholeNumber('maxEvents', options.maxEvents ?? DEFAULT_MAX_STORED_EVENTS);
    this.maxBytes = wholeNumber('maxBytes', options.maxBytes ?? DEFAULT_MAX_STORED_EVENT_BYTES);
    // The least a stream with one event is charged: a bound below it would keep nothing at all.
    const least = redisStreamCost(`${this.keyPrefix}log::{x}:stream:x`, 'x') + redisEventCost(2, 'x');
    if (this.maxBytes < least) {
      throw new ToolInputError(
        `RedisEventLog maxBytes (maxEventStoreBytesPerSession when serving with redis) must be at least ${least}: on Redis a stream with one event is charged that much (Redis reserves 4 kB for the newest node of each Stream; see docs/scaling.md), so a smaller bound would keep nothing; got ${this.maxBytes}.`,
      );
    }
    this.resumeWindowMs = wholeNumber('resumeWindowMs', options.resumeWindowMs ?? DEFAULT_RESUME_WINDOW_MS);
    this.keyTtlMs = wholeNumber('keyTtlMs', options.keyTtlMs ?? 30 * 60 * 1000);
    this.maxTotalBytes = wholeNumber('maxTotalBytes', options.maxTotalBytes ?? DEFAULT_MAX_EVENT_STORE_BYTES);
    if (this.maxTotalBytes < this.maxBytes) {
      throw new ToolInputError(
        `RedisEventLog maxTotalBytes (maxEventStoreBytes when serving with redis) must be at least maxBytes (maxEventStoreBytesPerSession), ${this.maxBytes}: one session may hold that much; got ${this.maxTotalBytes}.`,
      );
    }
  }

  /** @throws ToolInputError when the session key or stream id cannot be stored. */
  async append(key: SessionKey, streamId: string, message: Record<string, unknown>): Promise<string> {
    assertStorableSessionKey(key);
    if (!isStorableStreamId(streamId)) {
      throw new ToolInputError(
        `A stream id must be 1-200 of [A-Za-z0-9_-], got '${String(streamId).slice(0, 100)}'.`,
      );
    }
    let json = JSON.stringify(message);
    let cost = redisEventCost(Buffer.byteLength(json), streamId);
    // A response too big for the bound is kept as an error saying so: a resuming client learns the outcome.
    const kept = cost > this.maxBytes ? tooBigToKeep(message) : undefined;
    if (kept) {
      json = JSON.stringify(kept);
      cost = redisEventCost(Buffer.byteLength(json), streamId);
    }
    const streamKey = toSessionKeys(this.keyPrefix, key).streamBase + streamId;
    const sequence = await this.run(APPEND, key, [
      streamId,
      json,
      String(cost),
      String(this.maxEvents),
      String(this.maxBytes),
      isResponse(message) ? '1' : '0',
      String(this.resumeWindowMs),
      String(redisStreamCost(streamKey, streamId)),
    ]);
    return `${streamId}_${toWholeNumber(sequence, key)}`;
  }

  async streamOf(key: SessionKey, eventId: string): Promise<string | undefined> {
    const parsed = parseEventId(eventId);
    if (!parsed || !isStorableSessionKey(key)) return undefined;
    const found = await this.run(HAS_EVENT, key, [parsed.streamId, parsed.sequence]);
    return Number(found) > 0 ? parsed.streamId : undefined;
  }

  async isStreamComplete(key: SessionKey, streamId: string): Promise<boolean> {
    if (!isStorableStreamId(streamId) || !isStorableSessionKey(key)) return false;
    return Number(await this.run(IS_COMPLETE, key, [streamId])) === 1;
  }

  async replayAfter(key: SessionKey, lastEventId: string, send: EventLogSend): Promise<string> {
    const streamId = await this.streamOf(key, lastEventId);
    if (streamId === undefined) {
      throw new ToolInputError(
        `Unknown or expired event id '${String(lastEventId).slice(0, 100)}': it was never issued or is no longer kept; start a new stream or re-send the request.`,
      );
    }
    // Events stored while replaying are sent too; events dropped meanwhile are skipped.
    await this.readFrom(key, streamId, parseEventId(lastEventId)!.sequence, send);
    return streamId;
  }

  async readAfter(key: SessionKey, streamId: string, cursor: string, send: EventLogSend): Promise<boolean> {
    const parsed = parseEventId(cursor);
    if (!parsed || parsed.streamId !== streamId || !isStorableSessionKey(key)) return false;
    return this.readFrom(key, streamId, parsed.sequence, send);
  }

  /** Sends the stream's events after sequence `after`; false when the log holds no such stream. */
  private async readFrom(
    key: SessionKey,
    streamId: string,
    after: string,
    send: EventLogSend,
  ): Promise<boolean> {
    let cursor = after;
    for (;;) {
      const page = await this.run(READ_AFTER, key, [streamId, cursor, String(REPLAY_PAGE)]);
      if (page === null || page === undefined) return false;
      if (!Array.isArray(page) || page.length === 0) return true;
      for (const entry of page) {
        const { sequence, json } = toEntry(entry, key);
        cursor = sequence;
        if (json === EMPTY_MESSAGE) continue;
        await send(`${streamId}_${sequence}`, toMessage(json, key));
      }
      if (page.length < REPLAY_PAGE) return true;
    }
  }

  async usage(key: SessionKey): Promise<EventLogUsage> {
    if (!isStorableSessionKey(key)) return { events: 0, bytes: 0 };
    const reply = await this.run(USAGE, key, []);
    const [events, bytes] = Array.isArray(reply) ? reply : [];
    return { events: Number(events) || 0, bytes: Number(bytes) || 0 };
  }

  async deleteSession(key: SessionKey): Promise<void> {
    if (!isStorableSessionKey(key)) return;
    await this.run(DELETE_SESSION, key, []);
  }

  private run(script: RedisScript, key: SessionKey, args: string[]): Promise<unknown> {
    const keys = toSessionKeys(this.keyPrefix, key);
    const budget = toBudgetKeys(this.keyPrefix);
    return this.commands.script(
      script,
      [budget.budget, budget.order, keys.log, keys.order, keys.done],
      [this.keyPrefix, keys.tail, String(this.keyTtlMs), String(this.maxTotalBytes), ...args],
      key.sessionId,
    );
  }
}

/** `<streamId>_<sequence>`; anything else was never issued by this log. */
function parseEventId(eventId: string): { streamId: string; sequence: string } | undefined {
  if (typeof eventId !== 'string') return undefined;
  const match = /^([A-Za-z0-9_-]{1,200})_([1-9][0-9]{0,15})$/.exec(eventId);
  return match ? { streamId: match[1]!, sequence: match[2]! } : undefined;
}

function toEntry(entry: unknown, key: SessionKey): { sequence: string; json: string } {
  if (Array.isArray(entry) && entry.length === 2 && Array.isArray(entry[1])) {
    const match = /^0-([0-9]+)$/.exec(String(entry[0]));
    const fields = entry[1] as unknown[];
    const at = fields.findIndex((field, index) => index % 2 === 0 && String(field) === 'm');
    if (match && at >= 0 && at + 1 < fields.length)
      return { sequence: match[1]!, json: String(fields[at + 1]) };
  }
  throw new SessionStoreDataError({
    sessionId: key.sessionId,
    reason: 'a stream entry Protolink did not write',
    provider: 'redis',
  });
}

function toMessage(json: string, key: SessionKey): Record<string, unknown> {
  let message: unknown;
  try {
    message = JSON.parse(json);
  } catch {
    throw new SessionStoreDataError({
      sessionId: key.sessionId,
      reason: 'a stored event is not JSON',
      provider: 'redis',
    });
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw new SessionStoreDataError({
      sessionId: key.sessionId,
      reason: 'a stored event is not a JSON object',
      provider: 'redis',
    });
  }
  return message as Record<string, unknown>;
}

function toWholeNumber(value: unknown, key: SessionKey): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 1) {
    throw new SessionStoreDataError({
      sessionId: key.sessionId,
      reason: 'the event sequence is not a number',
      provider: 'redis',
    });
  }
  return number;
}

function wholeNumber(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ToolInputError(
      `RedisEventLog ${name} must be a whole number of at least 1, got ${String(value)}.`,
    );
  }
  return value;
}

/** A JSON-RPC response (result or error): the end of the request it answers. */
function isResponse(message: object): boolean {
  return 'id' in message && !('method' in message) && ('result' in message || 'error' in message);
}
