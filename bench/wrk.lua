-- wrk script of bench/load.sh. The environment says what to send:
--   ARBOR_PATHS   comma-separated paths, taken in turn (one per session for appends to many sessions)
--   ARBOR_METHOD  GET (default) or POST
--   ARBOR_BODY    the JSON body of a POST
-- Prints one line that load.sh turns into a table row: requests/s, latency percentiles, errors.

local paths = {}
for path in string.gmatch(os.getenv("ARBOR_PATHS") or "/", "[^,]+") do
  paths[#paths + 1] = path
end
local method = os.getenv("ARBOR_METHOD") or "GET"
local body = os.getenv("ARBOR_BODY")
local headers = {}
if body then
  headers["Content-Type"] = "application/json"
end

local next_path = 0
local threads = 0

-- Runs in the main state, once per thread: each thread starts elsewhere in the list.
function setup(thread)
  thread:set("offset", threads * 31)
  threads = threads + 1
end

function init(args)
  next_path = offset or 0
end

function request()
  next_path = next_path + 1
  return wrk.format(method, paths[(next_path % #paths) + 1], headers, body)
end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format("RESULT %.1f %.2f %.2f %.2f %d %d %d\n", summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000, summary.requests, errors,
    summary.errors.status))
end

-- ARBOR_STATUS=1: prints the status and the start of the body of every answer that is not 2xx (slows wrk down, so
-- only for finding out what the errors column counts).
if os.getenv("ARBOR_STATUS") then
  function response(status, headers, body)
    if status < 200 or status > 299 then
      io.write("STATUS " .. status .. " " .. string.sub(body or "", 1, 160) .. "\n")
    end
  end
end
