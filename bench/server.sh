# Sourced by the benchmark scripts (bash, set -euo pipefail, run from the checkout): builds the jar and the
# generated 100,000-entry (32 MB) session, starts Arbor on it at $PORT with $JAVA_OPTS, waits until it is healthy,
# and stops it and removes its files when the script exits. Sets work (the temp dir; the server log is
# $work/server.log), BASE, big (the big session's id) and json (a helper: json 'python expression on d').
BASE="http://localhost:$PORT"
work=$(mktemp -d)
server=""
cleanup() {
	# wait reports the server's SIGTERM (143); under set -e that would become the script's exit status
	if [ -n "$server" ] && kill "$server" 2>/dev/null; then wait "$server" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

echo "Building the jar and the 100,000-entry session (in $work) ..." >&2
./mvnw -B -q -DskipTests package
./mvnw -B -q -Pbench -DskipTests test-compile exec:exec@bench-session -Dbench.session=32MB \
	-Dbench.session.dir="$work/sessions"
jar=$(ls target/arbor-*.jar | grep -v plain | head -n 1)
if curl -fs "$BASE/actuator/health" >/dev/null 2>&1; then
	echo "Something already answers on port $PORT: set PORT to a free one" >&2
	exit 1
fi

# shellcheck disable=SC2086
java $JAVA_OPTS -jar "$jar" --server.port="$PORT" --arbor.storage.dir="$work/sessions" \
	--logging.level.root=WARN >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 60); do
	curl -fs "$BASE/actuator/health" >/dev/null && break
	sleep 1
done
curl -fs "$BASE/actuator/health" >/dev/null || { cat "$work/server.log" >&2; exit 1; }
big=$(curl -fs "$BASE/sessions?limit=10" | json 'next(s["id"] for s in d["items"] if s["entryCount"] == 100000)')
