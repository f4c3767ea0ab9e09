import { defineRedisScript } from './redis-commands';

/**
 * Creates a task: its hash (record JSON and lease), its place in the owner's index (a sorted set scored by
 * a per-owner sequence, the paging cursor) and its expiry, in one step. The index and the sequence expire no
 * earlier than the longest-lived task they hold: a new one gets the task's TTL, an existing one is extended
 * to it, and a task without TTL makes them persistent (a key without expiry that existed before is one
 * such task's, and is kept).
 * KEYS: task hash, owner index, owner sequence. ARGV: task id, record JSON, lease deadline (ms), ttl (ms or '').
 */
export const CREATE_TASK = defineRedisScript(`
local fresh = { [2] = redis.call('EXISTS', KEYS[2]) == 0, [3] = redis.call('EXISTS', KEYS[3]) == 0 }
local sequence = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[1], 'record', ARGV[2], 'lease', ARGV[3])
redis.call('ZADD', KEYS[2], sequence, ARGV[1])
if ARGV[4] == '' then
  redis.call('PERSIST', KEYS[2])
  redis.call('PERSIST', KEYS[3])
else
  local ttl = tonumber(ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ttl)
  for index = 2, 3 do
    local left = redis.call('PTTL', KEYS[index])
    if fresh[index] or (left ~= -1 and left < ttl) then redis.call('PEXPIRE', KEYS[index], ttl) end
  end
end
return sequence`);

/**
 * Reads or changes a task by compare-and-set: nothing is written to a task in a terminal status; a task that
 * is not terminal and whose lease ran out becomes 'failed' (ARGV[4] is its message, `__TOOL__` standing for the tool's name) before anything else.
 * KEYS: task hash. ARGV: mode ('read' | 'status' | 'result'), now (ms), now (ISO), lost message,
 * new status, new status message ('' for none), result JSON (mode 'result').
 * Returns the record JSON after the step, with a leading '1' when this step changed it as asked ('0' else),
 * or nil when the task is not there.
 */
export const STEP_TASK = defineRedisScript(`
local json = redis.call('HGET', KEYS[1], 'record')
if not json then return nil end
local record = cjson.decode(json)
local function terminal(status)
  return status == 'completed' or status == 'failed' or status == 'cancelled'
end
local function write(status, message)
  record['status'] = status
  if message == '' then record['statusMessage'] = nil else record['statusMessage'] = message end
  record['lastUpdatedAt'] = ARGV[3]
  json = cjson.encode(record)
  redis.call('HSET', KEYS[1], 'record', json)
end
if not terminal(record['status']) and tonumber(redis.call('HGET', KEYS[1], 'lease')) <= tonumber(ARGV[2]) then
  write('failed', (string.gsub(ARGV[4], '__TOOL__', record['toolName'])))
end
if ARGV[1] == 'read' or terminal(record['status']) then return {'0', json} end
if ARGV[1] == 'result' then redis.call('HSET', KEYS[1], 'result', ARGV[7]) end
write(ARGV[5], ARGV[6])
return {'1', json}`);

/** Extends the lease of a task that is there and not terminal. KEYS: task hash. ARGV: lease deadline (ms). */
export const HEARTBEAT_TASK = defineRedisScript(`
local json = redis.call('HGET', KEYS[1], 'record')
if not json then return 0 end
local status = cjson.decode(json)['status']
if status == 'completed' or status == 'failed' or status == 'cancelled' then return 0 end
redis.call('HSET', KEYS[1], 'lease', ARGV[1])
return 1`);
