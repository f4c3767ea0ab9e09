-- wrk script of the serving bench: POSTs a JSON-RPC `tools/call` of `add(20, 22)` with a fresh id per
-- request, the MCP headers, an optional bearer token and (stateful) one of the given session ids in turn.
-- Arguments after `--`: <check|measure> <protocol version> <token or -> <session ids, comma-separated, or ->
-- In `check` mode every response body is read and must carry the sum (wrk only parses bodies when a
-- `response` function exists, so the measured run leaves it out). `done` prints one JSON line.

local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

local headers = {}
local sessions = {}
local counter = 0
local expected = '"text":"42"'
checked = 0
wrong = 0
sample = ""

local function check_response(status, _, body)
   checked = checked + 1
   if status ~= 200 or not string.find(body or "", expected, 1, true) then
      wrong = wrong + 1
      if sample == "" then
         sample = tostring(status) .. " " .. string.sub(body or "", 1, 300)
      end
   end
end

function init(args)
   headers["Content-Type"] = "application/json"
   headers["Accept"] = "application/json, text/event-stream"
   headers["MCP-Protocol-Version"] = args[2]
   if args[3] ~= nil and args[3] ~= "-" then
      headers["Authorization"] = "Bearer " .. args[3]
   end
   if args[4] ~= nil and args[4] ~= "-" then
      for id in string.gmatch(args[4], "[^,]+") do
         table.insert(sessions, id)
      end
   end
   if args[1] == "check" then
      response = check_response
   end
end

function request()
   counter = counter + 1
   if #sessions > 0 then
      headers["Mcp-Session-Id"] = sessions[(counter % #sessions) + 1]
   end
   local body = '{"jsonrpc":"2.0","id":' .. counter ..
      ',"method":"tools/call","params":{"name":"add","arguments":{"a":20,"b":22}}}'
   return wrk.format("POST", nil, headers, body)
end

local function escape(text)
   return (string.gsub(text, '[%c"\\]', function(c)
      return string.format("\\u%04x", string.byte(c))
   end))
end

function done(summary, latency, requests)
   local checked_total, wrong_total, first_sample = 0, 0, ""
   for _, thread in ipairs(threads) do
      checked_total = checked_total + (thread:get("checked") or 0)
      wrong_total = wrong_total + (thread:get("wrong") or 0)
      local s = thread:get("sample") or ""
      if first_sample == "" then first_sample = s end
   end
   io.write(string.format(
      'SERVE_LOAD_RESULT {"requests":%d,"durationMicros":%d,"p50Micros":%d,"p99Micros":%d,"p999Micros":%d,' ..
      '"maxMicros":%d,"non2xx":%d,"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"timeouts":%d,' ..
      '"checked":%d,"wrong":%d,"sample":"%s"}\n',
      summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
      latency:percentile(99.9), latency.max, summary.errors.status, summary.errors.connect,
      summary.errors.read, summary.errors.write, summary.errors.timeout,
      checked_total, wrong_total, escape(first_sample)))
end
