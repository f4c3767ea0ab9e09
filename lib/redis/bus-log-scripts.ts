import { LOG_BUDGET_LUA } from './log-budget-lua';
import { defineRedisScript } from './redis-commands';

/**
 * Appends a message to the session's bus log, bounds the log (by count, age and bytes, oldest first, never
 * the new message), charges it to the prefix's budget (dropping the oldest logs of any session beyond it),
 * renews its expiry, and wakes the subscribers with the new entry's id: all in one step, so a wake-up never
 * announces an entry that is not there. After the budget's keys and arguments (see log-budget-lua.ts):
 * KEYS[3] the log, KEYS[4] its counters; ARGV[5] most entries, [6] retention (ms), [7] most bytes, [8] the
 * channel, [9] the message's JSON, [10] what it costs, [11] what the log itself costs. Returns the entry id.
 */
export const PUBLISH = defineRedisScript(`${LOG_BUDGET_LUA}
local b = busOf(tail)
local maxEntries, retention, maxBytes = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local channel, json, bytes, logCost = ARGV[8], ARGV[9], tonumber(ARGV[10]), tonumber(ARGV[11])
local charged = tonumber(redis.call('HGET', b.counters, 'bytes'))
local starts = redis.call('EXISTS', b.log) == 0
-- The first write: a Redis at maxmemory refuses it (OOM), before anything else was changed.
local id = redis.call('XADD', b.log, '*', 'm', json, 'b', bytes)
if charged ~= nil then removeUnit(busUnit(b, charged), charged) end
if charged == nil or starts then charged = logCost end
charged = charged + bytes
local time = tonumber(string.match(id, '^(%d+)-'))
local length = redis.call('XLEN', b.log)
local cursor, trimming = '-', true
while trimming do
  local page = redis.call('XRANGE', b.log, cursor, '+', 'COUNT', 100)
  if #page == 0 then break end
  for _, entry in ipairs(page) do
    local entryTime = tonumber(string.match(entry[1], '^(%d+)-')) or 0
    if entry[1] == id or (length <= maxEntries and charged <= maxBytes and time - entryTime <= retention) then
      trimming = false
      break
    end
    redis.call('XDEL', b.log, entry[1])
    charged = charged - bytesOf(entry[2])
    length = length - 1
  end
  cursor = '(' .. page[#page][1]
end
charged = math.max(charged, logCost + bytes)
redis.call('HSET', b.counters, 'bytes', charged)
addUnit(busUnit(b, charged), charged)
fitBudget({[busUnit(b, charged)] = true})
redis.call('PEXPIRE', b.log, ttl)
redis.call('PEXPIRE', b.counters, ttl)
redis.call('PUBLISH', channel, id)
return id`);
