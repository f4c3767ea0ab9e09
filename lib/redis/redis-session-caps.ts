import { SessionLimitError } from '../errors/session-limit-error';
import { isRedisFullError } from './to-store-error';
import type { SessionKey } from '../state/session-key';
import type { SessionAdmission } from '../state/session-store';
import { defineRedisScript } from './redis-commands';
import type { RedisCommands } from './redis-commands';
import { toSessionCapKeys, toSessionCapMember } from './redis-keys';

// Shared by the scripts: Redis's own clock (every process agrees on it, as the records' PEXPIRE does), the
// removal of one member with its client's count, and an expiry that outlasts the latest member.
const HELPERS = `
local function now_ms()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local function forget(member)
  local client = redis.call('HGET', KEYS[3], member)
  redis.call('HDEL', KEYS[3], member)
  if client and redis.call('HINCRBY', KEYS[2], client, -1) <= 0 then redis.call('HDEL', KEYS[2], client) end
end
local function outlast(ms)
  for index = 1, 3 do
    if redis.call('PTTL', KEYS[index]) < ms then redis.call('PEXPIRE', KEYS[index], ms) end
  end
end`;

// Trims the expired members (with their clients' counts), then counts: 1 = maxSessions reached,
// 2 = maxSessionsPerClient reached, 3 = counted already (nothing changed), 0 = admitted (the member added,
// scored by its expiry).
// ARGV: member, client, maxSessions, maxSessionsPerClient, idle timeout (ms).
const ADMIT = defineRedisScript(`${HELPERS}
local now = now_ms()
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)
for _, member in ipairs(expired) do forget(member) end
if #expired > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now) end
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 3 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 1 end
if tonumber(redis.call('HGET', KEYS[2], ARGV[2]) or '0') >= tonumber(ARGV[4]) then return 2 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[5]), ARGV[1])
redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
outlast(tonumber(ARGV[5]))
return 0`);

// Moves the expiry of a counted session on (a touch); one that is not counted stays so. ARGV: member, ms.
const REFRESH = defineRedisScript(`${HELPERS}
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now_ms() + tonumber(ARGV[2]), ARGV[1])
outlast(tonumber(ARGV[2]))
return 1`);

// Gives a session's place back (deleted, or found gone). ARGV: member.
const RELEASE = defineRedisScript(`${HELPERS}
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return 0 end
forget(ARGV[1])
return 1`);

/**
 * The session caps of one key prefix on Redis, beside the session records: a sorted set of the admitted
 * sessions scored by when they expire, trimmed of the expired ones in the same script that counts, so an
 * expiry can never leave a place taken (no bare counter that a lost decrement would leak).
 */
export class RedisSessionCaps {
  private readonly keys: string[];

  constructor(
    private readonly commands: RedisCommands,
    keyPrefix: string,
    private readonly idleTimeoutMs: number,
  ) {
    const { members, clients, clientOf } = toSessionCapKeys(keyPrefix);
    this.keys = [members, clients, clientOf];
  }

  /**
   * Takes a place for the session; resolves false when it holds one already (nothing changed).
   *
   * @throws SessionLimitError when a cap is reached.
   * @throws SessionStoreUnavailableError when Redis cannot be reached.
   */
  async admit(key: SessionKey, admission: SessionAdmission): Promise<boolean> {
    const reply = Number(
      await this.commands.script(
        ADMIT,
        this.keys,
        [
          toSessionCapMember(key),
          admission.client,
          String(admission.maxSessions),
          String(admission.maxSessionsPerClient),
          String(this.idleTimeoutMs),
        ],
        key.sessionId,
      ),
    );
    if (reply === 1) throw new SessionLimitError({ limit: 'maxSessions', max: admission.maxSessions });
    if (reply === 2) {
      throw new SessionLimitError({ limit: 'maxSessionsPerClient', max: admission.maxSessionsPerClient });
    }
    return reply === 0;
  }

  /** Moves the place's expiry on, as a touch does the record's. */
  async refresh(key: SessionKey): Promise<void> {
    try {
      await this.commands.script(
        REFRESH,
        this.keys,
        [toSessionCapMember(key), String(this.idleTimeoutMs)],
        key.sessionId,
      );
    } catch (error) {
      // A full Redis refuses the ZADD, yet the session it already has must go on being served (its record's
      // touch needs no memory): its place keeps its old expiry, at worst counting it for less long.
      if (!isRedisFullError(error)) throw error;
    }
  }

  /** Gives the place back (nothing when the session holds none). */
  async release(key: SessionKey): Promise<void> {
    await this.commands.script(RELEASE, this.keys, [toSessionCapMember(key)], key.sessionId);
  }
}
