# Sourced by the benchmark scripts (bash, set -euo pipefail, run from the checkout): builds the jar and the
# generated 100,000-entry (32 MB) session, starts Arbor on it at $PORT with $JAVA_OPTS and $ARBOR_ARGS, waits until
# it is healthy, and stops it and removes its files when the script exits. Sets work (the temp dir; the server log
# is $work/server.log), BASE, big (the big session's id) and json (a helper: json 'python expression on d').
# BIG_SESSION=none starts Arbor on an empty directory instead (big is then empty); JAR runs another build of Arbor
# (an older commit's, to measure before and after). start_server and stop_server restart it on the same files.
# START_TIMEOUT (seconds, default 60) is how long start_server waits for it to be healthy.
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

BIG_SESSION=${BIG_SESSION:-32MB}
ARBOR_ARGS=${ARBOR_ARGS:-}
echo "Building the jar and the generated session ($BIG_SESSION, in $work) ..." >&2
./mvnw -B -q -DskipTests package
mkdir -p "$work/sessions"
if [ "$BIG_SESSION" != none ]; then
	./mvnw -B -q -Pbench -DskipTests test-compile exec:exec@bench-session -Dbench.session="$BIG_SESSION" \
		-Dbench.session.dir="$work/sessions"
fi
jar=${JAR:-$(ls target/arbor-*.jar | grep -v plain | head -n 1)}
if curl -fs "$BASE/actuator/health" >/dev/null 2>&1; then
	echo "Something already answers on port $PORT: set PORT to a free one" >&2
	exit 1
fi

# Starts Arbor on $work/sessions with the settings given as arguments (after $ARBOR_ARGS) and waits until it is healthy.
start_server() {
	# shellcheck disable=SC2086
	java $JAVA_OPTS -jar "$jar" --server.port="$PORT" --arbor.storage.dir="$work/sessions" \
		--logging.level.root=WARN $ARBOR_ARGS "$@" >>"$work/server.log" 2>&1 &
	server=$!
	for _ in $(seq 1 "${START_TIMEOUT:-60}"); do
		curl -fs "$BASE/actuator/health" >/dev/null && break
		sleep 1
	done
	curl -fs "$BASE/actuator/health" >/dev/null || { cat "$work/server.log" >&2; exit 1; }
}

stop_server() {
	if [ -n "$server" ] && kill "$server" 2>/dev/null; then wait "$server" 2>/dev/null || true; fi
	server=""
}

start_server
big=""
if [ "$BIG_SESSION" != none ]; then
	big=$(curl -fs "$BASE/sessions?limit=10" | json 'next(s["id"] for s in d["items"] if s["entryCount"] > 1000)')
fi
