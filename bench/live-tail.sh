#!/usr/bin/env bash
# What it costs Arbor to follow files that other processes write
# (docs/BENCHMARKS.md#living-beside-an-agent-benchlive-agentsh-benchlive-tailsh):
#   1. latency: the time from an append by another process (as the agents write: open in append mode, one write,
#      close) to the entry_appended event on the session's stream, with the folder watched (the default) and with
#      watching off, found by the poll alone (arbor.storage.poll-interval, default 2s). The client is
#      dev.arbor.bench.ExternalAppendLoad (src/jmh/java, JDK only).
#   2. cpu: the CPU time of an idle Arbor over $CPU_SECONDS seconds, on $FILES session files in $FOLDERS folders:
#      after start-up (nothing loaded) and after a listing (every session loaded, so every file is polled).
# Settings: PORT (default 18080), JAVA_OPTS (default -Xmx1g), PARTS (default "latency cpu"), FILES (10000),
# FOLDERS (100), CPU_SECONDS (60), JAR (another build of Arbor, e.g. an older commit's: run it with PARTS=cpu).
# Prints Markdown tables.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18080}
JAVA_OPTS=${JAVA_OPTS:--Xmx1g}
PARTS=${PARTS:-latency cpu}
FILES=${FILES:-10000}
FOLDERS=${FOLDERS:-100}
CPU_SECONDS=${CPU_SECONDS:-60}
BIG_SESSION=none

. bench/server.sh
./mvnw -B -q -Pbench -DskipTests test-compile

status=0
if [[ " $PARTS " == *" latency "* ]]; then
	echo "| folder | appends | delivered | p50 | p99 | max | twice |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	java -cp target/test-classes dev.arbor.bench.ExternalAppendLoad "$BASE" "$work/sessions" \
		"watched (poll every 2 s as well)" || status=$?
	stop_server
	start_server --arbor.storage.watch=false
	java -Dext.events=200 -cp target/test-classes dev.arbor.bench.ExternalAppendLoad "$BASE" "$work/sessions" \
		"polled every 2 s, watching off" || status=$?
fi

# CPU time (user + system, in clock ticks) of the server process so far.
ticks() { awk '{ print $14 + $15 }' "/proc/$server/stat"; }
measure() {
	local before after
	before=$(ticks)
	sleep "$CPU_SECONDS"
	after=$(ticks)
	python3 -c "print(f'{($after - $before) / $(getconf CLK_TCK) / $CPU_SECONDS * 100:.2f} %')"
}

if [[ " $PARTS " == *" cpu "* ]]; then
	stop_server
	rm -rf "$work/sessions"
	echo "Writing $FILES session files in $FOLDERS folders ..." >&2
	python3 - "$work/sessions" "$FILES" "$FOLDERS" <<'PY'
import os, sys, uuid
root, files, folders = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for i in range(files):
    folder = os.path.join(root, f"--home-me-project-{i % folders}--")
    os.makedirs(folder, exist_ok=True)
    sid = str(uuid.UUID(int=i + 1))
    with open(os.path.join(folder, f"2026-01-01T00-00-00-000Z_{sid}.jsonl"), "w") as f:
        f.write('{"type":"session","version":3,"id":"%s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/home/me/project"}\n' % sid)
        parent = "null"
        for n in range(3):
            f.write('{"type":"message","id":"%08x","parentId":%s,"timestamp":"2026-01-01T00:00:0%d.000Z","message":{"role":"user","content":"hello %d"}}\n' % (n + 1, parent, n, n))
            parent = '"%08x"' % (n + 1)
PY
	start_server
	sleep 15 # start-up and the first rounds of the watch and the poll are not idle
	echo "| $FILES session files, $(java -version 2>&1 | head -n 1) | idle CPU (one core = 100 %) |"
	echo "|---|---:|"
	echo "| after start-up, nothing loaded | $(measure) |"
	curl -fs "$BASE/sessions?limit=1000" >/dev/null
	loaded=$(curl -fs "$BASE/actuator/prometheus" | awk '/^arbor_sessions_loaded /{ print $2 }' || true)
	sleep 5
	echo "| after a listing, ${loaded:-?} sessions loaded | $(measure) |"
fi
problems=$(grep -E '^[0-9-]+T[^ ]+ +(WARN|ERROR) ' "$work/server.log" | grep -v SpringDocAppInitializer || true)
[ -z "$problems" ] || { echo "Server log, WARN and ERROR:" >&2; echo "$problems" | tail -n 50 >&2; }
echo >&2
echo "commit $(git rev-parse --short HEAD), $(nproc) cores, $(java -version 2>&1 | head -n 1)" >&2
exit "$status"
