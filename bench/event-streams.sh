#!/usr/bin/env bash
# Event streams at scale (docs/BENCHMARKS.md#event-streams-benchevent-streamssh): Arbor at -Xmx512m with IDLE idle
# streams and LIVE live ones (10,000 and 100), health probed every 20 ms throughout; the heap per stream and the OS
# threads; REFUSED streams over arbor.events.max-streams (set to IDLE + LIVE), each refused with 503; every live
# stream getting every append; heap and threads for 60 s after the streams leave; and STALLED streams that never
# read while 100 KB entries are appended: dropped with a resync, the heap bounded. The client is
# dev.arbor.bench.EventStreamLoad (src/jmh/java, JDK only, one selector thread); it needs jcmd on the PATH.
# Settings: PORT (default 18080), JAVA_OPTS (default -Xmx512m), IDLE, LIVE, REFUSED, STALLED, JAR (another build),
# HISTOGRAM (a file for the server's class histogram once the streams have left).
# Prints Markdown tables; exits 1 when a check fails.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18080}
JAVA_OPTS=${JAVA_OPTS:--Xmx512m}
IDLE=${IDLE:-10000}
LIVE=${LIVE:-100}
REFUSED=${REFUSED:-100}
STALLED=${STALLED:-1000}
BIG_SESSION=none
# each stream is a socket at both ends
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
ARBOR_ARGS="${ARBOR_ARGS:-} --arbor.events.max-streams=$((IDLE + LIVE))"

. bench/server.sh
./mvnw -B -q -Pbench -DskipTests test-compile

java -Xmx1g -Des.idle="$IDLE" -Des.live="$LIVE" -Des.refused="$REFUSED" -Des.stalled="$STALLED" \
	${HISTOGRAM:+-Des.histogram="$HISTOGRAM"} \
	-cp target/test-classes dev.arbor.bench.EventStreamLoad "$BASE" "$server"
