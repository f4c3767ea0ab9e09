import { defineRedisScript } from './redis-commands';

// Shared head of every event log script. KEYS: the counters hash, the order set, the done set; ARGV[1]: the
// prefix of the session's stream keys, ARGV[2]: the key expiry (ms). The counters count the events and their
// bytes, each stream's own cost included. Members of the order set are
// `<sequence>|<streamId>|<bytes>` scored by sequence, oldest first over all streams of the session; the done
// set scores a complete stream by the time its events are released. Counters never trust a value they did
// not write: a non-number counts as 0.
const HEAD = `
local meta, order, done, base, ttl = KEYS[1], KEYS[2], KEYS[3], ARGV[1], tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local function count(field)
  local value = tonumber(redis.call('HGET', meta, field))
  if value == nil then return 0 end
  return value
end
local function charge(events, bytes)
  redis.call('HSET', meta, 'events', math.max(0, count('events') + events), 'bytes', math.max(0, count('bytes') + bytes))
end
local function bytesOf(fields)
  for index = 1, #fields, 2 do
    if fields[index] == 'b' then return tonumber(fields[index + 1]) or 0 end
  end
  return 0
end
-- Each stream's own cost (its key, the node Redis reserves) is a field 's:<stream>' of the counters, in bytes.
local function forgetStreamCost(stream)
  local field = 's:' .. stream
  local cost = tonumber(redis.call('HGET', meta, field))
  redis.call('HDEL', meta, field)
  if cost ~= nil then charge(0, -cost) end
end
-- Forgets a whole stream: its key, its members and its bytes.
local function release(stream)
  local key = base .. stream
  if redis.call('TYPE', key)['ok'] == 'stream' then
    local entries = redis.call('XRANGE', key, '-', '+')
    for _, entry in ipairs(entries) do
      local sequence = string.match(entry[1], '^0%-(%d+)$')
      local bytes = bytesOf(entry[2])
      if sequence and redis.call('ZREM', order, sequence .. '|' .. stream .. '|' .. bytes) == 1 then
        charge(-1, -bytes)
      end
    end
  end
  redis.call('DEL', key)
  redis.call('ZREM', done, stream)
  forgetStreamCost(stream)
end
-- Forgets the oldest event of the session.
local function dropOldest()
  local oldest = redis.call('ZRANGE', order, 0, 0)
  if #oldest == 0 then return false end
  redis.call('ZREM', order, oldest[1])
  local sequence, stream, bytes = string.match(oldest[1], '^(%d+)|([%w_%-]+)|(%d+)$')
  if not sequence then return redis.error_reply('PROTOLINK_DATA the event order holds a foreign member') end
  charge(-1, -tonumber(bytes))
  local key = base .. stream
  if redis.call('TYPE', key)['ok'] == 'stream' then
    redis.call('XDEL', key, '0-' .. sequence)
    if redis.call('XLEN', key) == 0 then
      redis.call('DEL', key)
      redis.call('ZREM', done, stream)
      forgetStreamCost(stream)
    end
  else
    forgetStreamCost(stream)
  end
  return true
end
-- Streams whose window passed are released before anything is read or written.
for _, stream in ipairs(redis.call('ZRANGEBYSCORE', done, '-inf', now)) do release(stream) end
local function keepAlive(stream)
  for _, key in ipairs({meta, order, done}) do redis.call('PEXPIRE', key, ttl) end
  if stream then redis.call('PEXPIRE', base .. stream, ttl) end
end
`;

/**
 * Appends one event. ARGV[3] stream id, [4] JSON, [5] bytes, [6] most events, [7] most bytes, [8] '1' for a
 * response, [9] resume window (ms), [10] what the stream itself costs when this event starts it (bytes).
 * Returns the event's sequence number.
 */
export const APPEND = defineRedisScript(`${HEAD}
local stream, json, bytes = ARGV[3], ARGV[4], tonumber(ARGV[5])
local maxEvents, maxBytes, isResponse, window = tonumber(ARGV[6]), tonumber(ARGV[7]), ARGV[8] == '1', tonumber(ARGV[9])
local streamCost = tonumber(ARGV[10]) or 0
local sequence = redis.call('HINCRBY', meta, 'sequence', 1)
local starts = redis.call('EXISTS', base .. stream) == 0
if bytes + (starts and streamCost or 0) > maxBytes then
  -- Kept streams have no holes: rather than replay the stream without this event, forget all of it.
  release(stream)
  keepAlive(nil)
  return sequence
end
redis.call('XADD', base .. stream, '0-' .. sequence, 'm', json, 'b', bytes)
if starts then
  -- A cost left by a stream whose key expired on its own is replaced, not added to.
  forgetStreamCost(stream)
  redis.call('HSET', meta, 's:' .. stream, streamCost)
  charge(0, streamCost)
end
redis.call('ZADD', order, sequence, sequence .. '|' .. stream .. '|' .. bytes)
charge(1, bytes)
while count('events') > maxEvents or count('bytes') > maxBytes do
  local dropped = dropOldest()
  if type(dropped) == 'table' then return dropped end
  if not dropped then break end
end
if isResponse and redis.call('EXISTS', base .. stream) == 1 then
  -- A batch answers on one stream: its last response starts the window.
  redis.call('ZADD', done, now + window, stream)
end
keepAlive(stream)
return sequence`);

/** Whether ARGV[3] (stream) holds the entry of sequence ARGV[4]: 1 or 0. */
export const HAS_EVENT = defineRedisScript(`${HEAD}
local key = base .. ARGV[3]
if redis.call('EXISTS', key) == 0 then return 0 end
keepAlive(ARGV[3])
local id = '0-' .. ARGV[4]
return #redis.call('XRANGE', key, id, id)`);

/** Whether stream ARGV[3] is complete (its final response stored and not yet released): 1 or 0. */
export const IS_COMPLETE = defineRedisScript(`${HEAD}
if redis.call('ZSCORE', done, ARGV[3]) then return 1 end
return 0`);

/** Up to ARGV[5] entries of stream ARGV[3] after sequence ARGV[4], as XRANGE returns them; nil when the log holds no such stream. */
export const READ_AFTER = defineRedisScript(`${HEAD}
local key = base .. ARGV[3]
if redis.call('EXISTS', key) == 0 then return false end
keepAlive(ARGV[3])
return redis.call('XRANGE', key, '(0-' .. ARGV[4], '+', 'COUNT', ARGV[5])`);

/** The session's counters: {events, bytes}. */
export const USAGE = defineRedisScript(`${HEAD}
return {count('events'), count('bytes')}`);

/** Drops every event of the session. */
export const DELETE_SESSION = defineRedisScript(`${HEAD}
local streams = {}
for _, member in ipairs(redis.call('ZRANGE', order, 0, -1)) do
  local stream = string.match(member, '^%d+|([%w_%-]+)|%d+$')
  if stream then streams[stream] = true end
end
for _, stream in ipairs(redis.call('ZRANGE', done, 0, -1)) do streams[stream] = true end
for stream in pairs(streams) do redis.call('DEL', base .. stream) end
redis.call('DEL', meta, order, done)
return 1`);
