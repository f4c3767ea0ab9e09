import { LOG_BUDGET_LUA } from './log-budget-lua';
import { defineRedisScript } from './redis-commands';

// Shared head of every event log script, after the budget's (see log-budget-lua.ts): KEYS[3..5] are the
// session's counters hash, order set and done set (named again from the tail, as the budget names any
// session's). Streams whose window passed are released before anything is read or written.
const HEAD = `${LOG_BUDGET_LUA}
local s = eventLogOf(tail)
for _, stream in ipairs(redis.call('ZRANGEBYSCORE', s.done, '-inf', now)) do release(s, stream) end
local function keepAlive(stream)
  for _, key in ipairs({s.meta, s.order, s.done}) do redis.call('PEXPIRE', key, ttl) end
  if stream then redis.call('PEXPIRE', s.base .. stream, ttl) end
end
`;

/**
 * Appends one event. ARGV[5] stream id, [6] JSON, [7] bytes, [8] most events, [9] most bytes, [10] '1' for a
 * response, [11] resume window (ms), [12] what the stream itself costs when this event starts it (bytes).
 * Returns the event's sequence number.
 */
export const APPEND = defineRedisScript(`${HEAD}
local stream, json, bytes = ARGV[5], ARGV[6], tonumber(ARGV[7])
local maxEvents, maxBytes, isResponse, window = tonumber(ARGV[8]), tonumber(ARGV[9]), ARGV[10] == '1', tonumber(ARGV[11])
local streamCost = tonumber(ARGV[12]) or 0
local sequence = redis.call('HINCRBY', s.meta, 'sequence', 1)
local key = s.base .. stream
local starts = redis.call('EXISTS', key) == 0
if bytes + (starts and streamCost or 0) > maxBytes then
  -- Kept streams have no holes: rather than replay the stream without this event, forget all of it.
  release(s, stream)
  keepAlive(nil)
  return sequence
end
redis.call('XADD', key, '0-' .. sequence, 'm', json, 'b', bytes)
if starts then
  -- A cost left by a stream whose key expired on its own is replaced, not added to.
  forgetStreamCost(s, stream)
  redis.call('HSET', s.meta, 's:' .. stream, streamCost)
  charge(s, 0, streamCost)
end
local keep = {}
-- The stream's own cost is as new as its newest event for the budget: it goes after its events.
local charged = tonumber(redis.call('HGET', s.meta, 's:' .. stream))
if charged ~= nil then
  addUnit(streamUnit(s, stream, charged), charged)
  keep[streamUnit(s, stream, charged)] = true
end
redis.call('ZADD', s.order, sequence, sequence .. '|' .. stream .. '|' .. bytes)
charge(s, 1, bytes)
addUnit(eventUnit(s, sequence, stream, bytes), bytes)
keep[eventUnit(s, sequence, stream, bytes)] = true
while count(s, 'events') > maxEvents or count(s, 'bytes') > maxBytes do
  local dropped = dropOldest(s)
  if type(dropped) == 'table' then return dropped end
  if not dropped then break end
end
fitBudget(keep)
if isResponse and redis.call('EXISTS', key) == 1 then
  -- A batch answers on one stream: its last response starts the window.
  redis.call('ZADD', s.done, now + window, stream)
end
keepAlive(stream)
return sequence`);

/** Whether ARGV[5] (stream) holds the entry of sequence ARGV[6]: 1 or 0. */
export const HAS_EVENT = defineRedisScript(`${HEAD}
local key = s.base .. ARGV[5]
if redis.call('EXISTS', key) == 0 then return 0 end
keepAlive(ARGV[5])
local id = '0-' .. ARGV[6]
return #redis.call('XRANGE', key, id, id)`);

/** Whether stream ARGV[5] is complete (its final response stored and not yet released): 1 or 0. */
export const IS_COMPLETE = defineRedisScript(`${HEAD}
if redis.call('ZSCORE', s.done, ARGV[5]) then return 1 end
return 0`);

/** Up to ARGV[7] entries of stream ARGV[5] after sequence ARGV[6], as XRANGE returns them; nil when the log holds no such stream. */
export const READ_AFTER = defineRedisScript(`${HEAD}
local key = s.base .. ARGV[5]
if redis.call('EXISTS', key) == 0 then return false end
keepAlive(ARGV[5])
return redis.call('XRANGE', key, '(0-' .. ARGV[6], '+', 'COUNT', ARGV[7])`);

/** The session's counters: {events, bytes}. */
export const USAGE = defineRedisScript(`${HEAD}
return {count(s, 'events'), count(s, 'bytes')}`);

/** Drops every event of the session, and what the budget charges for them. */
export const DELETE_SESSION = defineRedisScript(`${HEAD}
local streams = {}
for _, member in ipairs(redis.call('ZRANGE', s.order, 0, -1)) do
  local sequence, stream, bytes = string.match(member, '^(%d+)|([%w_%-]+)|(%d+)$')
  if stream then
    streams[stream] = true
    removeUnit(eventUnit(s, sequence, stream, bytes), tonumber(bytes))
  end
end
for _, stream in ipairs(redis.call('ZRANGE', s.done, 0, -1)) do streams[stream] = true end
local fields = redis.call('HGETALL', s.meta)
for index = 1, #fields, 2 do
  local stream = string.match(fields[index], '^s:([%w_%-]+)$')
  local cost = tonumber(fields[index + 1])
  if stream and cost then
    streams[stream] = true
    removeUnit(streamUnit(s, stream, cost), cost)
  end
end
for stream in pairs(streams) do redis.call('DEL', s.base .. stream) end
redis.call('DEL', s.meta, s.order, s.done)
return 1`);
