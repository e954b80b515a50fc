#!/usr/bin/env bash
# The PostgreSQL store beside the file store, in one run
# (docs/BENCHMARKS.md#several-replicas-on-postgresql-benchreplicassh):
#   - durable appends/s over HTTP (wrk): 1 session from 1 and from 64 connections, 64 sessions from 64 connections,
#     on the file store, then on one replica of the PostgreSQL store;
#   - SSE delivery latency of entry_appended: on the file store (one server), on one PostgreSQL replica, and across
#     replicas (subscribers on B, appends on A); dev.arbor.bench.NavigationLoad measures it;
#   - the cold open of the generated 100,000-entry (32 MB) session in a fresh process on each store: the first
#     GET /sessions/{id}, then the first page of GET …/tree/rows (the PostgreSQL store loads the tree only there).
# Needs wrk, and a PostgreSQL where POSTGRES_USER may create databases: POSTGRES_HOST (localhost), POSTGRES_PORT
# (5432), POSTGRES_USER (postgres), POSTGRES_PASSWORD (postgres); a database of its own is created and dropped.
# Settings: DURATION (20s) per measurement, WARMUP (5s), PORT (18080; the replicas take the next two),
# JAVA_OPTS (-Xms1g -Xmx1g, each server), SSE_SUBSCRIBERS (100), RUNS (2, cold opens per store). Prints Markdown.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-20s}
WARMUP=${WARMUP:-5s}
PORT=${PORT:-18080}
JAVA_OPTS=${JAVA_OPTS:--Xms1g -Xmx1g}
SSE_SUBSCRIBERS=${SSE_SUBSCRIBERS:-100}
RUNS=${RUNS:-2}
POSTGRES_HOST=${POSTGRES_HOST:-localhost}
POSTGRES_PORT=${POSTGRES_PORT:-5432}
POSTGRES_USER=${POSTGRES_USER:-postgres}
POSTGRES_PASSWORD=${POSTGRES_PASSWORD:-postgres}
export PGPASSWORD=$POSTGRES_PASSWORD

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
command -v psql >/dev/null || { echo "psql is missing: apt-get install postgresql-client" >&2; exit 1; }
. bench/wrk-run.sh
. bench/server.sh

database="arbor_bench_$$"
psql -q -h "$POSTGRES_HOST" -p "$POSTGRES_PORT" -U "$POSTGRES_USER" -d postgres -c "CREATE DATABASE $database"
replicas=()
finish() {
	for pid in "${replicas[@]}"; do
		kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
	done
	psql -q -h "$POSTGRES_HOST" -p "$POSTGRES_PORT" -U "$POSTGRES_USER" -d postgres \
		-c "DROP DATABASE IF EXISTS $database WITH (FORCE)" || true
	cleanup
}
trap finish EXIT

A="http://localhost:$((PORT + 1))"
B="http://localhost:$((PORT + 2))"

# start_replica <port>: a PostgreSQL replica; its pid is appended to replicas and printed.
start_replica() {
	# shellcheck disable=SC2086
	java $JAVA_OPTS -jar "$jar" --server.port="$1" --arbor.storage.type=postgres \
		--spring.datasource.url="jdbc:postgresql://$POSTGRES_HOST:$POSTGRES_PORT/$database" \
		--spring.datasource.username="$POSTGRES_USER" --spring.datasource.password="$POSTGRES_PASSWORD" \
		--arbor.api.max-request-bytes=64MB --logging.level.root=WARN \
		>>"$work/replica-$1.log" 2>&1 &
	local pid=$!
	replicas+=("$pid")
	for _ in $(seq 1 120); do
		curl -fs "http://localhost:$1/actuator/health/readiness" >/dev/null && return 0
		sleep 0.5
	done
	cat "$work/replica-$1.log" >&2
	exit 1
}

stop_replicas() {
	for pid in "${replicas[@]}"; do
		kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
	done
	replicas=()
}

sessions() { # sessions <base> <count>: creates empty sessions, prints their ids
	for _ in $(seq 1 "$2"); do
		curl -fs -X POST "$1/sessions" -H 'Content-Type: application/json' -d '{"cwd":"/bench"}' | json 'd["id"]'
	done
}

message='{"type":"message","message":{"role":"user","content":"Run the test suite again and tell me which tests fail, with the first lines of each stack trace."}}'

appends() { # appends <store> <base> <duration>
	local one many=""
	one=$(sessions "$2" 1)
	for id in $(sessions "$2" 64); do many="$many,/sessions/$id/entries"; done
	many=${many#,}
	wrk_row "$1: 1 session, 1 connection" 1 1 "$3" "$2" "/sessions/$one/entries" "$message"
	wrk_row "$1: 1 session, 64 connections" 2 64 "$3" "$2" "/sessions/$one/entries" "$message"
	wrk_row "$1: 64 sessions, 64 connections" 2 64 "$3" "$2" "$many" "$message"
	# What the errors column counts: the status codes other than 201 of one more second of the same load
	ARBOR_PATHS="$many" ARBOR_METHOD=POST ARBOR_BODY="$message" ARBOR_STATUS=1 \
		wrk -t2 -c64 -d1s --timeout 30s -s "$(pwd)/bench/wrk.lua" "$2" | grep '^STATUS' | sort | uniq -c >&2 || true
}

timed() { # the total time of one request in ms
	curl -s -o /dev/null -w '%{time_total}\n' "$@" | awk '{ printf "%.0f\n", $1 * 1000 }'
}

cold_open() { # cold_open <store> <base> <session id>: one table row
	local info rows
	info=$(timed "$2/sessions/$3")
	rows=$(timed "$2/sessions/$3/tree/rows?limit=100")
	printf '| %s | %s | %s | %s |\n' "$1" "$info" "$rows" "$((info + rows))"
}

sse() { # sse <name> <subscribe base> <append base>
	# shellcheck disable=SC2086
	java -Xmx512m -Dnav.skip=true -Dsse.subscribers="$SSE_SUBSCRIBERS" -Dsse.append.base="$3" \
		-cp target/test-classes dev.arbor.bench.NavigationLoad "$2" none | tail -n 2 | sed "s/^| /| $1 | /"
}

echo "Starting two PostgreSQL replicas and importing the 100,000-entry session ..." >&2
start_replica $((PORT + 1))
start_replica $((PORT + 2))
big_file=$(ls "$work"/sessions/*.jsonl | head -n 1)
big_pg=$(curl -fs -X POST "$A/sessions/import" -H 'Content-Type: application/x-ndjson' --data-binary "@$big_file" \
	| json 'd["id"]')

echo "Warming up ($WARMUP each) ..." >&2
appends file "$BASE" "$WARMUP" >/dev/null
appends postgres "$A" "$WARMUP" >/dev/null

echo "## Durable appends over HTTP"
echo
echo "| store: sessions, connections | connections | requests/s | p50 ms | p99 ms | requests | errors |"
echo "|---|---:|---:|---:|---:|---:|---:|"
appends file "$BASE" "$DURATION"
appends postgres "$A" "$DURATION"
echo
echo "## SSE delivery of entry_appended (200 appends, one every 20 ms)"
echo
echo "| where | subscribers | entries appended | deliveries (expected) | p50 ms | p99 ms | max ms | missing | duplicates | streams ended early | time to open all streams |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
sse "file store, one server" "$BASE" "$BASE"
sse "PostgreSQL, one replica" "$A" "$A"
sse "PostgreSQL, appended on A, streamed from B" "$B" "$A"
echo
echo "## Cold open of the 100,000-entry session (fresh process each time)"
echo
echo "| store | first GET /sessions/{id} ms | then first GET …/tree/rows?limit=100 ms | both ms |"
echo "|---|---:|---:|---:|"
stop_replicas
for _ in $(seq 1 "$RUNS"); do
	stop_server
	start_server
	cold_open file "$BASE" "$big"
	stop_server
	start_replica $((PORT + 1))
	cold_open postgres "$A" "$big_pg"
	stop_replicas
done
problems=$(grep -hE '^[0-9-]+T[^ ]+ +(WARN|ERROR) ' "$work"/server.log "$work"/replica-*.log | grep -v SpringDocAppInitializer || true)
[ -z "$problems" ] || { echo "Server logs, WARN and ERROR:" >&2; echo "$problems" | cut -c1-400 | sort | uniq -c | sort -rn | head -n 20 >&2; }
echo >&2
echo "commit $(git rev-parse --short HEAD), $(nproc) cores, $(java -version 2>&1 | head -n 1), $(psql --version), wrk $(wrk -v 2>&1 | head -n 1 | cut -d' ' -f2)" >&2
