#!/usr/bin/env bash
# Navigation and live-event benchmark of Arbor's HTTP API, in one run against one server
# (docs/BENCHMARKS.md#navigation-and-live-events-benchnavigate-eventssh):
#   - POST /sessions/{id}/navigate on a generated 100,000-entry (32 MB) session, without summary, alternating
#     between an assistant entry near the end and one in the middle: with ?context=false and with the context;
#   - SSE delivery latency of entry_appended to 1 and to 1,000 subscribers of one fresh session.
# The client is dev.arbor.bench.NavigationLoad (src/jmh/java, JDK HttpClient only), run from target/test-classes.
# Settings: PORT (default 18080), JAVA_OPTS (server, default -Xms2g -Xmx2g), CLIENT_OPTS (client JVM and its
# -D settings, see NavigationLoad's javadoc; default -Xmx1g). Prints Markdown tables.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18080}
JAVA_OPTS=${JAVA_OPTS:--Xms2g -Xmx2g}
CLIENT_OPTS=${CLIENT_OPTS:--Xmx1g}

# 1,000 streams take 1,000 sockets in the server and 1,000 in the client (both inherit this limit).
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt 4096 ]; then
	ulimit -n 4096 2>/dev/null || { echo "ulimit -n is $(ulimit -n) and cannot be raised to 4096" >&2; exit 1; }
fi

. bench/server.sh

status=0
# shellcheck disable=SC2086
java $CLIENT_OPTS -cp target/test-classes dev.arbor.bench.NavigationLoad "$BASE" "$big" || status=$?
problems=$(grep -E '^[0-9-]+T[^ ]+ +(WARN|ERROR) ' "$work/server.log" | grep -v SpringDocAppInitializer || true)
[ -z "$problems" ] || { echo "Server log, WARN and ERROR:" >&2; echo "$problems" | tail -n 50 >&2; }
echo >&2
echo "commit $(git rev-parse --short HEAD), $(nproc) cores, $(java -version 2>&1 | head -n 1), ulimit -n $(ulimit -n)" >&2
exit "$status"
