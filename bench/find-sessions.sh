#!/usr/bin/env bash
# Finding a session (docs/BENCHMARKS.md#finding-a-session-benchfind-sessionssh): a folder of SESSIONS sessions of
# ENTRIES entries on average (10,000 and 100: a million entries) written by dev.arbor.bench.SessionFolder in pi's
# --<cwd>-- folders, with words drawn by Zipf's law; Arbor started on it at $JAVA_OPTS with no search index yet; then
# dev.arbor.bench.FindLoad (src/jmh/java, JDK only): the search index built at first start (rate, size), GET /search
# p50/p99 for one word, two words and a phrase beside LC_ALL=C grep -rlF over the same folder, appends found by
# search, and GET /sessions?limit=50 beside GET /sessions/{id}/leaf. Last, pi 0.73.1's SessionManager.listAll over the
# same folder (npm install into the temp dir; skipped, and said so, without node and npm or when the install fails).
# Settings: PORT (default 18080), JAVA_OPTS (default -Xmx2g), SESSIONS, ENTRIES, QUERIES (100), FRESH (100 appends),
# START_TIMEOUT (600 s: the start alone took 40 to 50 s on the loaded machine of docs/BENCHMARKS.md), JAR (another build).
# Prints Markdown tables on stdout and each phase's duration on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18080}
JAVA_OPTS=${JAVA_OPTS:--Xmx2g}
SESSIONS=${SESSIONS:-10000}
ENTRIES=${ENTRIES:-100}
QUERIES=${QUERIES:-100}
FRESH=${FRESH:-100}
START_TIMEOUT=${START_TIMEOUT:-600}
BIG_SESSION=none

phase_start=$(date +%s)
phase() {
	local now
	now=$(date +%s)
	echo "[$(date -u +%H:%M:%S)] $1 ($((now - phase_start)) s since the last mark)" >&2
	phase_start=$now
}

. bench/server.sh
stop_server
# The first start (in server.sh, on an empty folder) made an index; the measured start has none, as on first use.
rm -rf "$work/sessions/.arbor"
phase "built, server started and stopped once"
./mvnw -B -q -Pbench -DskipTests test-compile
echo "Writing $SESSIONS sessions into $work/sessions ..." >&2
generated=$(java -cp target/test-classes dev.arbor.bench.SessionFolder "$work/sessions" "$SESSIONS" "$ENTRIES")
echo "$generated" >&2
entries=$(echo "$generated" | sed -E 's/^[0-9]+ sessions, ([0-9]+) entries.*/\1/')
phase "folder written ($(du -sh "$work/sessions" | cut -f1))"

started=$(date +%s.%N)
# FileSearch logs at info how long its build took, from the index's own clock.
start_server --logging.level.dev.arbor.storage.file.FileSearch=INFO
healthy=$(date +%s.%N)
since_start=$(python3 -c "print(round($healthy - $started, 2))")
phase "healthy after $since_start s"
java -Xmx1g -Dfind.queries="$QUERIES" -Dfind.fresh="$FRESH" -Dfind.pid="$server" -cp target/test-classes dev.arbor.bench.FindLoad "$BASE" \
	"$work/sessions" "$entries" "$started"
echo
grep -o 'Search index: [0-9]* sessions indexed in [0-9]* ms' "$work/server.log" | tail -n 1 |
	sed -E 's/.* ([0-9]+) ms/\1/' | while read -r millis; do
		echo "The index's own build time (server log): $millis ms, $(python3 -c "print(f'{$entries / ($millis / 1000):,.0f}')") entries/s"
	done
stop_server
phase "FindLoad done"

echo
if command -v node >/dev/null && command -v npm >/dev/null; then
	mkdir -p "$work/agent"
	cp bench/agent/package.json bench/agent/upstream-list.mjs "$work/agent/"
	if (cd "$work/agent" && npm install --silent --no-audit --no-fund >/dev/null 2>&1); then
		# pi lists $PI_CODING_AGENT_DIR/sessions; it only reads the files.
		mkdir -p "$work/pi"
		ln -s "$work/sessions" "$work/pi/sessions"
		for _ in 1 2 3; do
			PI_CODING_AGENT_DIR="$work/pi" node "$work/agent/upstream-list.mjs" || echo "pi's SessionManager.listAll: failed (exit $?)"
		done
	else
		echo "pi's SessionManager.listAll: skipped, npm install of pi-coding-agent 0.73.1 failed"
	fi
else
	echo "pi's SessionManager.listAll: skipped, node or npm is missing"
fi
phase "pi done"
echo "checkout $(git rev-parse --short HEAD), jar $jar, $(nproc) cores, $(java -version 2>&1 | head -n 1), JAVA_OPTS $JAVA_OPTS," \
	"node $(node --version 2>/dev/null || echo none), load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
