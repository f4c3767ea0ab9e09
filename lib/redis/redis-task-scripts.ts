import { defineRedisScript } from './redis-commands';

/**
 * The bookkeeping of the task store's bounds, shared by the scripts that create and end tasks (each script
 * sets `P`, the key prefix, before it). A ledger is kept per owner (`<P>tasks:{<owner>}:live|ended|bytes`)
 * and over the prefix (`<P>tasks:live|ended|bytes`): `live` scores each task by its expiry (Redis's clock,
 * as its hash's own expiry; `+inf` without TTL) and gives the count, `ended` scores the ended tasks in the
 * order they ended (the first is forgotten first; the counter is `#order` of the prefix's `bytes`), `bytes`
 * holds each result's bytes and their sum under `#`. Over
 * the prefix a member is `<taskId>|<owner>` (a task id has no `|`). `forget` removes a task everywhere,
 * another owner's too: these keys are built here from `P`, so the store needs one Redis (not a Cluster).
 */
const TASK_LEDGER = `
local function ownerKey(owner, suffix) return P .. 'tasks:{' .. owner .. '}' .. suffix end
local function ledgerOf(owner)
  if owner == nil then return { live = P .. 'tasks:live', ended = P .. 'tasks:ended', bytes = P .. 'tasks:bytes' } end
  return { live = ownerKey(owner, ':live'), ended = ownerKey(owner, ':ended'), bytes = ownerKey(owner, ':bytes') }
end
local TOTAL = ledgerOf(nil)
local function clock()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local function drop(ledger, member)
  redis.call('ZREM', ledger.live, member)
  redis.call('ZREM', ledger.ended, member)
  local bytes = redis.call('HGET', ledger.bytes, member)
  if bytes then
    redis.call('HDEL', ledger.bytes, member)
    redis.call('HINCRBY', ledger.bytes, '#', -tonumber(bytes))
  end
end
local function forget(owner, id)
  redis.call('DEL', P .. 'task:{' .. owner .. '}:' .. id)
  redis.call('ZREM', ownerKey(owner, ''), id)
  drop(ledgerOf(owner), id)
  drop(TOTAL, id .. '|' .. owner)
end
local function forgetMember(ledger, owner, member)
  if owner then return forget(owner, member) end
  local bar = string.find(member, '|', 1, true)
  forget(string.sub(member, bar + 1), string.sub(member, 1, bar - 1))
end
local function prune(ledger, owner, now)
  for _, member in ipairs(redis.call('ZRANGEBYSCORE', ledger.live, '-inf', now, 'LIMIT', 0, 100)) do
    forgetMember(ledger, owner, member)
  end
end
local function forgetOldestEnded(ledger, owner)
  local oldest = redis.call('ZRANGE', ledger.ended, 0, 0)[1]
  if not oldest then return false end
  forgetMember(ledger, owner, oldest)
  return true
end
local function bytesOf(ledger) return tonumber(redis.call('HGET', ledger.bytes, '#') or '0') end
local function markEnded(owner, id)
  local mine = ledgerOf(owner)
  if not redis.call('ZSCORE', mine.live, id) then return end
  -- A counter, not the clock: tasks ending within one millisecond keep their order.
  local order = redis.call('HINCRBY', TOTAL.bytes, '#order', 1)
  local fresh = redis.call('EXISTS', mine.ended) == 0
  redis.call('ZADD', mine.ended, order, id)
  if fresh then
    local left = redis.call('PTTL', mine.live)
    if left > 0 then redis.call('PEXPIRE', mine.ended, left) end
  end
  redis.call('ZADD', TOTAL.ended, order, id .. '|' .. owner)
end
`;

/**
 * Creates a task: its hash (record JSON and lease), its place in the owner's index (a sorted set scored by
 * a per-owner sequence, the paging cursor), its entries in the ledgers and its expiry, in one step. At a
 * count bound the oldest ended task of the owner (then of anyone) is forgotten first; when none has ended
 * nothing is written. The owner's keys expire no earlier than the longest-lived task they hold: a new one
 * gets the task's TTL, an existing one is extended to it, and a task without TTL makes them persistent (a
 * key without expiry that existed before is one such task's, and is kept).
 * KEYS: task hash, owner index, owner sequence, owner live, owner ended, owner bytes, total live, total
 * ended, total bytes. ARGV: task id, record JSON, lease deadline (ms), ttl (ms or ''), key prefix, owner,
 * maxTasksPerOwner, maxTasks.
 * Returns the task's sequence, or `{'full', <bound>}` when a bound is full of running tasks.
 */
export const CREATE_TASK = defineRedisScript(`
local P, OWNER = ARGV[5], ARGV[6]
${TASK_LEDGER}
local mine, now = ledgerOf(OWNER), clock()
prune(mine, OWNER, now)
prune(TOTAL, nil, now)
while redis.call('ZCARD', mine.live) >= tonumber(ARGV[7]) do
  if not forgetOldestEnded(mine, OWNER) then return {'full', 'maxTasksPerOwner'} end
end
while redis.call('ZCARD', TOTAL.live) >= tonumber(ARGV[8]) do
  if not forgetOldestEnded(TOTAL, nil) then return {'full', 'maxTasks'} end
end
local owned = { KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6] }
local fresh = {}
for index, key in ipairs(owned) do fresh[index] = redis.call('EXISTS', key) == 0 end
local sequence = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[1], 'record', ARGV[2], 'lease', ARGV[3])
redis.call('ZADD', KEYS[2], sequence, ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[4] == '' and '+inf' or now + tonumber(ARGV[4]), ARGV[1])
redis.call('HSETNX', KEYS[6], '#', 0)
redis.call('ZADD', KEYS[7], ARGV[4] == '' and '+inf' or now + tonumber(ARGV[4]), ARGV[1] .. '|' .. OWNER)
redis.call('HSETNX', KEYS[9], '#', 0)
if ARGV[4] == '' then
  for _, key in ipairs(owned) do redis.call('PERSIST', key) end
else
  local ttl = tonumber(ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ttl)
  for index, key in ipairs(owned) do
    -- The ended set may not exist yet (it is made when a task ends, with the live set's expiry).
    if redis.call('EXISTS', key) == 1 then
      local left = redis.call('PTTL', key)
      if fresh[index] or (left ~= -1 and left < ttl) then redis.call('PEXPIRE', key, ttl) end
    end
  end
end
return sequence`);

/**
 * Reads or changes a task by compare-and-set: nothing is written to a task in a terminal status; a task that
 * is not terminal and whose lease ran out becomes 'failed' (ARGV[4] is its message, `__TOOL__` standing for the tool's name) before anything else.
 * A result is kept once the oldest ended tasks of the owner (then of anyone) are forgotten until its bytes
 * fit the byte bounds; a task that ends is entered in the ledgers' ended sets.
 * KEYS: task hash, then the ledgers' keys as for CREATE_TASK (owner live, ended, bytes; total live, ended,
 * bytes). ARGV: mode ('read' | 'status' | 'result'), now (ms), now (ISO), lost message, new status, new
 * status message ('' for none), result JSON (mode 'result'), key prefix, owner, task id, the result's bytes,
 * maxResultBytesPerOwner, maxResultBytes.
 * Returns the record JSON after the step, with a leading '1' when this step changed it as asked ('0' else),
 * or nil when the task is not there.
 */
export const STEP_TASK = defineRedisScript(`
local P, OWNER, ID = ARGV[8], ARGV[9], ARGV[10]
${TASK_LEDGER}
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
  if terminal(status) then markEnded(OWNER, ID) end
end
if not terminal(record['status']) and tonumber(redis.call('HGET', KEYS[1], 'lease')) <= tonumber(ARGV[2]) then
  write('failed', (string.gsub(ARGV[4], '__TOOL__', record['toolName'])))
end
if ARGV[1] == 'read' or terminal(record['status']) then return {'0', json} end
if ARGV[1] == 'result' then
  local mine, bytes, now = ledgerOf(OWNER), tonumber(ARGV[11]), clock()
  prune(mine, OWNER, now)
  prune(TOTAL, nil, now)
  while bytesOf(mine) + bytes > tonumber(ARGV[12]) and forgetOldestEnded(mine, OWNER) do end
  while bytesOf(TOTAL) + bytes > tonumber(ARGV[13]) and forgetOldestEnded(TOTAL, nil) do end
  -- Pruned itself (it expired this very moment): as if it were not there.
  if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
  redis.call('HSET', KEYS[1], 'result', ARGV[7])
  if redis.call('ZSCORE', mine.live, ID) then
    redis.call('HSET', mine.bytes, ID, bytes)
    redis.call('HINCRBY', mine.bytes, '#', bytes)
    redis.call('HSET', TOTAL.bytes, ID .. '|' .. OWNER, bytes)
    redis.call('HINCRBY', TOTAL.bytes, '#', bytes)
  end
end
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
