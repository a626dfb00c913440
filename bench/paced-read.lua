-- wrk script for the read latency at a fixed rate (wrk itself has no rate option). Each connection
-- sends a request, waits WRK_GAP_MS after the answer, and sends the next: N connections then offer
-- about N * 1000 / (gap + latency) requests a second, spread evenly rather than in bursts.
-- done() prints the figures as one JSON line on stderr for bench/run.ts.
local token = os.getenv("WRK_TOKEN")
local gap = tonumber(os.getenv("WRK_GAP_MS") or "20")
if token and token ~= "" then
  wrk.headers["Authorization"] = "Bearer " .. token
end

function delay()
  return gap
end

function done(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.stderr:write(string.format(
    '{"requests":%d,"seconds":%f,"p50":%f,"p99":%f,"max":%f,"errors":%d,"non2xx":%d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, errors, summary.errors.status))
end
