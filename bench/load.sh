#!/usr/bin/env bash
# Load benchmark of Arbor's HTTP API, in one run against one server (docs/BENCHMARKS.md#http-load-benchloadsh):
#   - durable appends/s (fsync on) to 1 session from 1 and from 64 connections, and to 64 sessions at once;
#   - tree and context reads/s on a generated 100,000-entry (32 MB) session;
#   - GET /actuator/health on the same server: the framework's own cost, the baseline for the rest.
# Needs wrk (apt-get install wrk). Settings: DURATION (default 20s) per measurement, WARMUP (default 5s),
# PORT (default 18080), JAVA_OPTS (default -Xms2g -Xmx2g). Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-20s}
WARMUP=${WARMUP:-5s}
PORT=${PORT:-18080}
JAVA_OPTS=${JAVA_OPTS:--Xms2g -Xmx2g}

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
. bench/server.sh
one=$(curl -fs -X POST "$BASE/sessions" -H 'Content-Type: application/json' -d '{"cwd":"/bench"}' | json 'd["id"]')
many=""
for _ in $(seq 1 64); do
	id=$(curl -fs -X POST "$BASE/sessions" -H 'Content-Type: application/json' -d '{"cwd":"/bench"}' | json 'd["id"]')
	many="$many,/sessions/$id/entries"
done
many=${many#,}
message='{"type":"message","message":{"role":"user","content":"Run the test suite again and tell me which tests fail, with the first lines of each stack trace."}}'

. bench/wrk-run.sh
run() {
	wrk_row "$1" "$2" "$3" "$4" "$BASE" "$5" "${6:-}"
}

measure() {
	run "GET /actuator/health (baseline)" 2 16 "$1" /actuator/health
	run "POST entries, 1 session, 1 connection" 1 1 "$1" "/sessions/$one/entries" "$message"
	run "POST entries, 1 session, 64 connections" 2 64 "$1" "/sessions/$one/entries" "$message"
	run "POST entries, 64 sessions, 64 connections" 2 64 "$1" "$many" "$message"
	run "GET tree, 100,000 entries" 2 4 "$1" "/sessions/$big/tree"
	run "GET context, 100,000 entries" 2 4 "$1" "/sessions/$big/context"
	run "GET context?format=llm, 100,000 entries" 2 4 "$1" "/sessions/$big/context?format=llm"
}

echo "Warming up ($WARMUP each) ..." >&2
measure "$WARMUP" >/dev/null
echo "| request | connections | requests/s | p50 ms | p99 ms | requests | errors |"
echo "|---|---:|---:|---:|---:|---:|---:|"
measure "$DURATION"
echo >&2
echo "commit $(git rev-parse --short HEAD), $(nproc) cores, $(java -version 2>&1 | head -n 1), wrk $(wrk -v 2>&1 | head -n 1 | cut -d' ' -f2)" >&2
