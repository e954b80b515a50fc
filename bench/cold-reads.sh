#!/usr/bin/env bash
# Cold start and cold reads
# (docs/BENCHMARKS.md#cold-start-and-cold-reads-benchcold-readssh-the-baseline-before-the-reads-for-frontends-work): the
# cold-read table on the generated 400,000-entry (128 MB) session, a fresh JVM per run, with the heap its goals were
# measured with (JAVA_OPTS, default -Xmx320m):
#   - launch to healthy, and Boot's "Started … in";
#   - the first GET /sessions/{id} of the big file in a fresh process, then the first GET /sessions/{id}/tree;
#   - GET …/tree/rows?limit=100: the first page, then PAGES (default 100) pages following the cursors;
#   - POST /sessions/{id}/navigate?context=false, no summary, to NAVIGATIONS (default 200) random entries;
#   - after each of 20 more navigations, the first page of rows (the view rebuilt for the moved leaf).
# RUNS (default 3) fresh processes each. Settings: PORT (default 18080), JAR (another build), ARBOR_ARGS. Needs
# python3 (standard library only). Prints Markdown tables.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18080}
JAVA_OPTS=${JAVA_OPTS:--Xmx320m}
RUNS=${RUNS:-3}
PAGES=${PAGES:-100}
NAVIGATIONS=${NAVIGATIONS:-200}
BIG_SESSION=128MB

. bench/server.sh

# Restarts the server (in this shell, so that the next restart stops it) and sets ready (ms from launch to a healthy
# answer) and started (Boot's own figure, s).
fresh_start() {
	stop_server
	: >"$work/server.log"
	local start end
	start=$(date +%s%N)
	# shellcheck disable=SC2086
	java $JAVA_OPTS -jar "$jar" --server.port="$PORT" --arbor.storage.dir="$work/sessions" --logging.level.root=WARN \
		--logging.level.dev.arbor.ArborApplication=INFO $ARBOR_ARGS >>"$work/server.log" 2>&1 &
	server=$!
	for _ in $(seq 1200); do
		curl -m 1 -fs "$BASE/actuator/health" >/dev/null && break
		sleep 0.05
	done
	end=$(date +%s%N)
	curl -m 1 -fs "$BASE/actuator/health" >/dev/null || { cat "$work/server.log" >&2; exit 1; }
	ready=$(((end - start) / 1000000))
	started=$(grep -o 'Started ArborApplication in [0-9.]*' "$work/server.log" | grep -o '[0-9.]*$' || true)
}

# The total time of one request in ms, and the size of its answer.
timed() {
	curl -s -o /dev/null -w '%{time_total} %{size_download}\n' "$@" | awk '{ printf "%.0f %d\n", $1 * 1000, $2 }'
}

echo "| run | launch to healthy ms | Boot's \"Started in\" s | first GET /sessions/{id} ms | then GET …/tree ms (bytes) |"
echo "|---:|---:|---:|---:|---:|"
for run in $(seq "$RUNS"); do
	fresh_start
	read -r session _ < <(timed "$BASE/sessions/$big")
	read -r tree tree_bytes < <(timed "$BASE/sessions/$big/tree")
	echo "| $run | $ready | $started | $session | $tree ($tree_bytes) |"
done

python3 - "$BASE" "$big" "$PAGES" "$NAVIGATIONS" <<'PY'
import http.client, json, random, statistics, sys, time, urllib.parse
base, session, pages, navigations = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
url = urllib.parse.urlparse(base)
conn = http.client.HTTPConnection(url.hostname, url.port, timeout=120)

def call(method, path, body=None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    start = time.perf_counter()
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    data = response.read()
    return (time.perf_counter() - start) * 1000, response.status, data

def pct(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]

took, status, data = call("GET", f"/sessions/{session}/tree/rows?limit=100")
first, page_times = took, []
cursor = json.loads(data).get("nextCursor")
for _ in range(pages):
    if not cursor:
        break
    took, status, data = call("GET", f"/sessions/{session}/tree/rows?limit=100&cursor={urllib.parse.quote(cursor)}")
    page_times.append(took)
    cursor = json.loads(data).get("nextCursor")
print()
print("| tree/rows?limit=100 | first page ms | next pages p50 ms | p99 ms | max ms | pages |")
print("|---|---:|---:|---:|---:|---:|")
print(f"| | {first:.0f} | {statistics.median(page_times):.0f} | {pct(page_times, 99):.0f} | {max(page_times):.0f} | {len(page_times)} |")

ids, after = [], None
while len(ids) < 400_000:
    query = "limit=1000" + (f"&after={after}" if after else "")
    _, status, data = call("GET", f"/sessions/{session}/entries?{query}")
    page = json.loads(data)
    ids += [entry["id"] for entry in page["items"]]
    after = page.get("nextCursor")
    if not after:
        break
random.seed(14)
times = []
for target in random.sample(ids, min(navigations, len(ids))):
    took, status, data = call("POST", f"/sessions/{session}/navigate?context=false", json.dumps({"targetId": target}))
    if status != 200:
        raise SystemExit(f"navigate to {target}: {status} {data[:200]!r}")
    times.append(took)
print()
print("| navigate, no summary, ?context=false, random targets | p50 ms | p99 ms | max ms | navigations |")
print("|---|---:|---:|---:|---:|")
print(f"| | {statistics.median(times):.1f} | {pct(times, 99):.1f} | {max(times):.1f} | {len(times)} |")

after_move = []
for target in random.sample(ids, 20):
    call("POST", f"/sessions/{session}/navigate?context=false", json.dumps({"targetId": target}))
    took, status, data = call("GET", f"/sessions/{session}/tree/rows?limit=100")
    after_move.append(took)
print()
print("| tree/rows?limit=100 right after a navigation | p50 ms | p99 ms | max ms | pages |")
print("|---|---:|---:|---:|---:|")
print(f"| | {statistics.median(after_move):.0f} | {pct(after_move, 99):.0f} | {max(after_move):.0f} | {len(after_move)} |")
PY
echo >&2
echo "checkout $(git rev-parse --short HEAD), jar $jar, $(nproc) cores, $(java -version 2>&1 | head -n 1), JAVA_OPTS $JAVA_OPTS" >&2
