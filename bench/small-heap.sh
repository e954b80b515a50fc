#!/usr/bin/env bash
# Memory under a small heap (docs/BENCHMARKS.md#memory-under-a-small-heap-benchsmall-heapsh): Arbor under -Xmx$XMX
# (512m), one new session, $APPENDS (30) appends of a 15 MB user message one after the other while an SSE client
# listens, then 10 label writes of 15 MB. Prints each answer's status, how many entries reached the file, how many
# entry_appended events the listener got, and how many OutOfMemoryErrors the log shows. Before the hardening work: 500s
# (one after the entry was written) and OOMs; after: 201s, then 413 session-too-large once the session would outgrow
# arbor.storage.max-session-size, every 201 announced.
#   bench/small-heap.sh                       # this checkout's jar
#   JAR=/path/to/older.jar bench/small-heap.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-18091}
XMX=${XMX:-512m}
APPENDS=${APPENDS:-30}
BASE="http://localhost:$PORT"
work=$(mktemp -d)
server=""
cleanup() {
	if [ -n "$server" ] && kill "$server" 2>/dev/null; then wait "$server" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT
if [ -z "${JAR:-}" ]; then
	./mvnw -B -q -DskipTests package
	JAR=$(ls target/arbor-*.jar | grep -v plain | head -n 1)
fi
mkdir -p "$work/sessions"
java -Xmx"$XMX" -jar "$JAR" --server.port="$PORT" --arbor.storage.dir="$work/sessions" --logging.level.root=WARN \
	>"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 240); do curl -fs "$BASE/actuator/health" >/dev/null && break; sleep 0.5; done
python3 -c "
import json
big = 'x' * (15 * 1024 * 1024)
open('$work/message.json', 'w').write(json.dumps({'type': 'message', 'message': {'role': 'user', 'content': big}}))
open('$work/label.json', 'w').write(json.dumps({'label': big}))"
session=$(curl -fs -X POST "$BASE/sessions" -H 'Content-Type: application/json' -d '{}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
curl -sN "$BASE/sessions/$session/events" >"$work/events" &
listener=$!
sleep 1
codes=""
for _ in $(seq "$APPENDS"); do
	codes="$codes $(curl -s -o /dev/null -w '%{http_code}' -X POST "$BASE/sessions/$session/entries" \
		-H 'Content-Type: application/json' --data-binary @"$work/message.json")"
done
echo "appends:$codes"
first=$(curl -fs "$BASE/sessions/$session/entries?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["items"][0]["id"])')
codes=""
for _ in $(seq 10); do
	codes="$codes $(curl -s -o /dev/null -w '%{http_code}' -X PUT "$BASE/sessions/$session/labels/$first" \
		-H 'Content-Type: application/json' --data-binary @"$work/label.json")"
done
echo "labels:$codes"
sleep 2
kill "$listener" 2>/dev/null || true
file=$(find "$work/sessions" -name '*.jsonl' | head -n 1)
echo "entries in the file: $(($(wc -l <"$file") - 1)); entry_appended events: $(grep -c '^event: *entry_appended' "$work/events" || true)"
echo "OutOfMemoryError in the log: $(grep -c 'OutOfMemoryError' "$work/server.log" || true)"
