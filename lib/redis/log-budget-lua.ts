// The Lua every script of the event log and the bus log begins with: the byte budget of the key prefix, and
// what it takes to drop the oldest of any session's logs when the prefix is over it.
//
// KEYS[1] is the budget (a hash: `bytes`, what is charged), KEYS[2] its order (a sorted set of what is
// charged, scored by the time it was last written, oldest first); ARGV[1] is the key prefix, ARGV[2] the
// session's tail (`<subject>:{<id>}`), ARGV[3] the expiry of the session's keys (ms), ARGV[4] the most bytes
// of the budget. The budget charges units: `e|<tail>|<sequence>|<stream>|<bytes>` an event,
// `s|<tail>|<stream>|<bytes>` a stream's own cost (scored by its newest event, so it goes after them) and
// `B|<tail>|<bytes>` a session's whole bus log (scored by its newest message). Each unit is charged its bytes
// plus what its member of the order costs. A unit whose session's keys expired stays charged until it is
// swept (the oldest few, at each write) or dropped: it is then free. A member Protolink did not write is
// nobody's bytes and goes when it is the oldest. Keys of other sessions are named from their tail, so the
// scripts need one Redis (or one primary), not a Cluster.

/** The budget: its units, how they are charged, dropped and swept; the event log and bus log of any session. */
export const LOG_BUDGET_LUA = `
local budget, budgetOrder = KEYS[1], KEYS[2]
local prefix, tail, ttl, maxTotal = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
-- Counters never trust a value they did not write: a non-number counts as 0.
local function numberIn(key, field)
  local value = tonumber(redis.call('HGET', key, field))
  if value == nil then return 0 end
  return value
end
-- The block Redis's allocator hands out for \`bytes\` (as allocatedBytes in redis-event-cost.ts).
local function allocated(bytes)
  if bytes <= 16 then return 16 end
  local power = 1
  while power * 2 <= bytes - 1 do power = power * 2 end
  local step = math.max(16, power / 4)
  return math.ceil(bytes / step) * step
end
local function unitCost(member, bytes) return bytes + allocated(#member + 9) + 96 end
-- Charges a unit once; writing it again only makes it the newest.
local function addUnit(member, bytes)
  if redis.call('ZADD', budgetOrder, now, member) == 1 then
    redis.call('HINCRBY', budget, 'bytes', unitCost(member, bytes))
  end
end
local function removeUnit(member, bytes)
  if redis.call('ZREM', budgetOrder, member) == 1 then
    redis.call('HSET', budget, 'bytes', math.max(0, numberIn(budget, 'bytes') - unitCost(member, bytes)))
  end
end
local function bytesOf(fields)
  for index = 1, #fields, 2 do
    if fields[index] == 'b' then return tonumber(fields[index + 1]) or 0 end
  end
  return 0
end

-- A session's event log: the counters hash (sequence, events, bytes, and 's:<stream>' each stream's own
-- cost), the order set (\`<sequence>|<stream>|<bytes>\` oldest first over all streams), the done set
-- (complete streams scored by their release time) and a Redis Stream per stream.
local function eventLogOf(owner)
  local meta = prefix .. 'log:' .. owner
  return {tail = owner, meta = meta, order = meta .. ':order', done = meta .. ':done', base = meta .. ':stream:'}
end
local function count(s, field) return numberIn(s.meta, field) end
local function charge(s, events, bytes)
  redis.call('HSET', s.meta, 'events', math.max(0, count(s, 'events') + events), 'bytes', math.max(0, count(s, 'bytes') + bytes))
end
local function eventUnit(s, sequence, stream, bytes) return 'e|' .. s.tail .. '|' .. sequence .. '|' .. stream .. '|' .. bytes end
local function streamUnit(s, stream, cost) return 's|' .. s.tail .. '|' .. stream .. '|' .. cost end
local function forgetStreamCost(s, stream)
  local field = 's:' .. stream
  local cost = tonumber(redis.call('HGET', s.meta, field))
  redis.call('HDEL', s.meta, field)
  if cost ~= nil then
    charge(s, 0, -cost)
    removeUnit(streamUnit(s, stream, cost), cost)
  end
end
local function forgetEvent(s, sequence, stream, bytes)
  charge(s, -1, -bytes)
  removeUnit(eventUnit(s, sequence, stream, bytes), bytes)
end
-- Forgets a whole stream: its key, its members and its bytes.
local function release(s, stream)
  local key = s.base .. stream
  if redis.call('TYPE', key)['ok'] == 'stream' then
    for _, entry in ipairs(redis.call('XRANGE', key, '-', '+')) do
      local sequence = string.match(entry[1], '^0%-(%d+)$')
      local bytes = bytesOf(entry[2])
      if sequence and redis.call('ZREM', s.order, sequence .. '|' .. stream .. '|' .. bytes) == 1 then
        forgetEvent(s, sequence, stream, bytes)
      end
    end
  end
  redis.call('DEL', key)
  redis.call('ZREM', s.done, stream)
  forgetStreamCost(s, stream)
end
-- Forgets one event, named by its member of the order set (which the caller took out of it).
local function dropMember(s, member)
  local sequence, stream, bytes = string.match(member, '^(%d+)|([%w_%-]+)|(%d+)$')
  if not sequence then return redis.error_reply('PROTOLINK_DATA the event order holds a foreign member') end
  forgetEvent(s, sequence, stream, tonumber(bytes))
  local key = s.base .. stream
  if redis.call('TYPE', key)['ok'] == 'stream' then
    redis.call('XDEL', key, '0-' .. sequence)
    if redis.call('XLEN', key) == 0 then
      redis.call('DEL', key)
      redis.call('ZREM', s.done, stream)
      forgetStreamCost(s, stream)
    end
  else
    forgetStreamCost(s, stream)
  end
  return true
end
-- Forgets the oldest event of the session.
local function dropOldest(s)
  local oldest = redis.call('ZRANGE', s.order, 0, 0)
  if #oldest == 0 then return false end
  redis.call('ZREM', s.order, oldest[1])
  return dropMember(s, oldest[1])
end

-- A session's bus log: a Redis Stream of messages (\`m\`, and \`b\` what each is charged) and its counters
-- (\`bytes\`: the log's own cost and its messages').
local function busOf(owner)
  local log = prefix .. 'bus:' .. owner .. ':log'
  return {tail = owner, log = log, counters = log .. ':counters'}
end
local function busUnit(b, bytes) return 'B|' .. b.tail .. '|' .. bytes end

local OWNER = '([^{}|]*:{[^{}]*})'
-- Whether the session a unit belongs to has no log any more (its keys expired): the unit is then free.
local function isGone(member)
  local owner = string.match(member, '^.|' .. OWNER .. '|')
  if not owner then return true end
  if string.sub(member, 1, 1) == 'B' then return redis.call('EXISTS', busOf(owner).log) == 0 end
  return redis.call('EXISTS', eventLogOf(owner).meta) == 0
end
-- Drops a unit and what it charges, whichever session it belongs to. Another session's keys are written only
-- while they are there (a key written here without its expiry would stay for ever).
local function evict(member)
  local kind = string.sub(member, 1, 2)
  if kind == 'e|' then
    local owner, sequence, stream, bytes = string.match(member, '^e|' .. OWNER .. '|(%d+)|([%w_%-]+)|(%d+)$')
    if owner then
      local s = eventLogOf(owner)
      local inner = sequence .. '|' .. stream .. '|' .. bytes
      if redis.call('EXISTS', s.meta) == 1 and redis.call('ZREM', s.order, inner) == 1 then dropMember(s, inner) end
      removeUnit(member, tonumber(bytes))
      return
    end
  elseif kind == 's|' then
    local owner, stream, cost = string.match(member, '^s|' .. OWNER .. '|([%w_%-]+)|(%d+)$')
    if owner then
      local s = eventLogOf(owner)
      if tonumber(redis.call('HGET', s.meta, 's:' .. stream)) == tonumber(cost) then release(s, stream) end
      removeUnit(member, tonumber(cost))
      return
    end
  elseif kind == 'B|' then
    local owner, bytes = string.match(member, '^B|' .. OWNER .. '|(%d+)$')
    if owner then
      local b = busOf(owner)
      if tonumber(redis.call('HGET', b.counters, 'bytes')) == tonumber(bytes) then redis.call('DEL', b.log, b.counters) end
      removeUnit(member, tonumber(bytes))
      return
    end
  end
  redis.call('ZREM', budgetOrder, member)
end
-- Sweeps the oldest units of sessions that are gone, then drops the oldest of any session until the prefix
-- is within its bound; never a unit in \`keep\` (what this write just charged).
local function fitBudget(keep)
  -- What this write charged is passed over, not a stop: written in the same millisecond as the units of a
  -- gone session, it may sort before them.
  for _, member in ipairs(redis.call('ZRANGE', budgetOrder, 0, 3)) do
    if not keep[member] then
      if not isGone(member) then break end
      evict(member)
    end
  end
  while numberIn(budget, 'bytes') > maxTotal do
    local oldest = redis.call('ZRANGE', budgetOrder, 0, 0)
    if #oldest == 0 or keep[oldest[1]] then break end
    evict(oldest[1])
  end
  -- Every key it charges expires within this (reads renew a log, writes renew the budget).
  if redis.call('PTTL', budget) < ttl then
    redis.call('PEXPIRE', budget, ttl)
    redis.call('PEXPIRE', budgetOrder, ttl)
  end
end
`;
