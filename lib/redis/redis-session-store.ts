import { SessionStoreDataError } from '../errors/session-store-data-error';
import { ToolInputError } from '../errors/tool-input-error';
import type { SessionKey } from '../state/session-key';
import type {
  NewSessionRecord,
  SessionAdmission,
  SessionRecord,
  SessionRecordChanges,
  SessionStore,
} from '../state/session-store';
import { defineRedisScript } from './redis-commands';
import type { RedisCommands } from './redis-commands';
import { assertStorableSessionKey, isStorableSessionKey, toSessionKeys } from './redis-keys';
import { RedisSessionCaps } from './redis-session-caps';

/** The layout of the session hash; a hash with another `format` is not ours. */
const FORMAT = '1';

// Creates the hash only when no key is there, and gives it its idle expiry in the same step.
const CREATE = defineRedisScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`);

// The fields and the time left, read together.
const READ = defineRedisScript(`
local fields = redis.call('HGETALL', KEYS[1])
if #fields == 0 then return {} end
return {redis.call('PTTL', KEYS[1]), fields}`);

// Extends (and changes) only a session that is there: an expired one is never revived by a late touch.
const TOUCH = defineRedisScript(`
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind == 'none' then return 0 end
if kind ~= 'hash' then return redis.error_reply('WRONGTYPE the session key holds a ' .. kind) end
if #ARGV > 1 then redis.call('HSET', KEYS[1], unpack(ARGV, 2)) end
return redis.call('PEXPIRE', KEYS[1], ARGV[1])`);

/** Options of {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions {
  /** The connection (see `createRedisBackend`). */
  commands: RedisCommands;
  /** Prefix of every key (default `protolink:`). */
  keyPrefix?: string;
  /** How long a session lives without use, in ms (a whole number of at least 1). */
  idleTimeoutMs: number;
}

/**
 * The session records on Redis, shared by every process serving the agent: a hash per session
 * (`<prefix>session:<token subject>:{<session id>}`) whose expiry (PEXPIRE) follows the idle timeout. Create,
 * touch and update are Lua scripts, so a session is created only once and an expired one is never revived.
 * The caps of `create` are counted beside the records (see {@link RedisSessionCaps}), by every process
 * sharing the prefix: a touch moves a session's place on with its record, a delete gives it back.
 */
export class RedisSessionStore implements SessionStore {
  readonly idleTimeoutMs: number;
  private readonly commands: RedisCommands;
  private readonly keyPrefix: string;
  private readonly caps: RedisSessionCaps;

  /** @throws ToolInputError when `idleTimeoutMs` is not a whole number of at least 1. */
  constructor(options: RedisSessionStoreOptions) {
    if (!Number.isSafeInteger(options.idleTimeoutMs) || options.idleTimeoutMs < 1) {
      throw new ToolInputError(
        `RedisSessionStore idleTimeoutMs must be a whole number of at least 1, got ${String(options.idleTimeoutMs)}.`,
      );
    }
    this.idleTimeoutMs = options.idleTimeoutMs;
    this.commands = options.commands;
    this.keyPrefix = options.keyPrefix ?? 'protolink:';
    this.caps = new RedisSessionCaps(this.commands, this.keyPrefix, this.idleTimeoutMs);
  }

  async create(record: NewSessionRecord, admission?: SessionAdmission): Promise<SessionRecord> {
    assertStorableSessionKey(record);
    // The place first: a process that dies between the two steps leaves a place that expires, no record.
    const placed = admission ? await this.caps.admit(record, admission) : false;
    try {
      return await this.createRecord(record);
    } catch (error) {
      if (placed) await this.caps.release(record).catch(() => undefined);
      throw error;
    }
  }

  private async createRecord(record: NewSessionRecord): Promise<SessionRecord> {
    const createdAt = Date.now();
    const fields: Record<string, string> = {
      format: FORMAT,
      sessionId: record.sessionId,
      tokenSubject: record.tokenSubject ?? '',
      protocolVersion: record.protocolVersion,
      clientCapabilities: JSON.stringify(record.clientCapabilities ?? {}),
      clientInfo: JSON.stringify(record.clientInfo ?? {}),
      createdAt: String(createdAt),
    };
    if (record.logLevel !== undefined) fields.logLevel = record.logLevel;
    const created = await this.commands.script(
      CREATE,
      [this.keyOf(record)],
      [String(this.idleTimeoutMs), ...Object.entries(fields).flat()],
      record.sessionId,
    );
    if (Number(created) !== 1) {
      throw new ToolInputError(`A session with id '${record.sessionId.slice(0, 100)}' exists already.`);
    }
    return {
      ...(JSON.parse(JSON.stringify(record)) as NewSessionRecord),
      createdAt,
      expiresAt: createdAt + this.idleTimeoutMs,
    };
  }

  async get(key: SessionKey): Promise<SessionRecord | undefined> {
    if (!isStorableSessionKey(key)) return undefined;
    const reply = await this.commands.script(READ, [this.keyOf(key)], [], key.sessionId);
    if (!Array.isArray(reply) || reply.length === 0) return undefined;
    return toRecord(key, reply, Date.now());
  }

  async touch(key: SessionKey): Promise<boolean> {
    return this.extend(key, []);
  }

  async update(key: SessionKey, changes: SessionRecordChanges): Promise<boolean> {
    return this.extend(key, changes.logLevel === undefined ? [] : ['logLevel', changes.logLevel]);
  }

  async delete(key: SessionKey): Promise<boolean> {
    if (!isStorableSessionKey(key)) return false;
    const [deleted] = await Promise.all([
      this.commands.send(['DEL', this.keyOf(key)], key.sessionId),
      this.caps.release(key),
    ]);
    return Number(deleted) > 0;
  }

  /**
   * Extends the record (changing `fields`) and its place under the caps, sent together (the two live on
   * different Cluster slots); a record found gone gives its place back, so it is never counted again.
   */
  private async extend(key: SessionKey, fields: string[]): Promise<boolean> {
    if (!isStorableSessionKey(key)) return false;
    const [reply] = await Promise.all([
      this.commands.script(TOUCH, [this.keyOf(key)], [String(this.idleTimeoutMs), ...fields], key.sessionId),
      this.caps.refresh(key),
    ]);
    if (Number(reply) === 1) return true;
    await this.caps.release(key);
    return false;
  }

  private keyOf(key: SessionKey): string {
    return toSessionKeys(this.keyPrefix, key).session;
  }
}

/** Reads a stored hash back, refusing anything Protolink did not write (as a data error of this session). */
function toRecord(key: SessionKey, reply: unknown[], now: number): SessionRecord {
  const fail = (reason: string): never => {
    throw new SessionStoreDataError({ sessionId: key.sessionId, reason, provider: 'redis' });
  };
  const [ttl, flat] = reply;
  if (!Array.isArray(flat) || flat.length % 2 !== 0) fail('the session hash could not be read');
  const fields = new Map<string, string>();
  for (let index = 0; index < (flat as unknown[]).length; index += 2) {
    fields.set(String((flat as unknown[])[index]), String((flat as unknown[])[index + 1]));
  }
  const text = (name: string): string => {
    const value = fields.get(name);
    if (value === undefined) fail(`field ${name} is missing`);
    return value as string;
  };
  const object = (name: string): Record<string, unknown> => {
    let value: unknown;
    try {
      value = JSON.parse(text(name));
    } catch {
      fail(`field ${name} is not JSON`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      fail(`field ${name} is not an object`);
    return value as Record<string, unknown>;
  };
  if (fields.get('format') !== FORMAT) fail('the session hash is not in a format this version writes');
  if (text('sessionId') !== key.sessionId || text('tokenSubject') !== (key.tokenSubject ?? '')) {
    fail('the session hash names another session');
  }
  const createdAt = Number(text('createdAt'));
  if (!Number.isSafeInteger(createdAt)) fail('field createdAt is not a time');
  const left = Number(ttl);
  if (!Number.isSafeInteger(left) || left < 0) fail('the session key has no expiry');
  const record: SessionRecord = {
    sessionId: key.sessionId,
    ...(key.tokenSubject === undefined ? {} : { tokenSubject: key.tokenSubject }),
    protocolVersion: text('protocolVersion'),
    clientCapabilities: object('clientCapabilities'),
    clientInfo: object('clientInfo'),
    ...(fields.has('logLevel') ? { logLevel: fields.get('logLevel') } : {}),
    createdAt,
    expiresAt: now + left,
  };
  return record;
}
