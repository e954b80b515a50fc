#!/usr/bin/env bash
# Finding a session (docs/BENCHMARKS.md#finding-a-session-benchfind-sessionssh): a folder of SESSIONS sessions of
# ENTRIES entries on average (10,000 and 100: a million entries) written by dev.arbor.bench.SessionFolder in pi's
# --<cwd>-- folders, with words drawn by Zipf's law; Arbor started on it at $JAVA_OPTS; then dev.arbor.bench.FindLoad
# (src/jmh/java, JDK only): the search index built at first start (rate, size), GET /search p50/p99 for one word,
# two words and a phrase beside LC_ALL=C grep -rlF over the same folder, an append found by search, and
# GET /sessions?limit=50 beside GET /sessions/{id}/leaf. Last, pi 0.73.1's SessionManager.listAll over the same folder
# (npm install into the temp dir; skipped, and said so, without node and npm).
# Settings: PORT (default 18080), JAVA_OPTS (default -Xmx2g), SESSIONS, ENTRIES, QUERIES (100), JAR (another build).
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18080}
JAVA_OPTS=${JAVA_OPTS:--Xmx2g}
SESSIONS=${SESSIONS:-10000}
ENTRIES=${ENTRIES:-100}
QUERIES=${QUERIES:-100}
BIG_SESSION=none

. bench/server.sh
stop_server
./mvnw -B -q -Pbench -DskipTests test-compile
echo "Writing $SESSIONS sessions into $work/sessions ..." >&2
generated=$(java -cp target/test-classes dev.arbor.bench.SessionFolder "$work/sessions" "$SESSIONS" "$ENTRIES")
echo "$generated" >&2
entries=$(echo "$generated" | sed -E 's/^[0-9]+ sessions, ([0-9]+) entries.*/\1/')
du -sh "$work/sessions" >&2

started=$(date +%s.%N)
start_server
healthy=$(date +%s.%N)
echo "Healthy after $(python3 -c "print(round($healthy - $started, 2))") s" >&2
java -Xmx1g -Dfind.queries="$QUERIES" -cp target/test-classes dev.arbor.bench.FindLoad "$BASE" "$work/sessions" \
	"$entries" "$(python3 -c "print(round($healthy - $started, 2))")"
stop_server

echo
if command -v node >/dev/null && command -v npm >/dev/null; then
	mkdir -p "$work/agent"
	cp bench/agent/package.json bench/agent/upstream-list.mjs "$work/agent/"
	(cd "$work/agent" && npm install --silent --no-audit --no-fund >/dev/null 2>&1)
	# pi lists $PI_CODING_AGENT_DIR/sessions; it only reads the files.
	mkdir -p "$work/pi"
	ln -s "$work/sessions" "$work/pi/sessions"
	for run in 1 2 3; do
		PI_CODING_AGENT_DIR="$work/pi" node "$work/agent/upstream-list.mjs"
	done
else
	echo "pi's SessionManager.listAll: skipped, node or npm is missing"
fi
