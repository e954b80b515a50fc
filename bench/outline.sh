#!/usr/bin/env bash
# The outline of the tree (docs/BENCHMARKS.md#the-outline-of-the-tree-benchoutlinesh): GET /sessions/{id}/tree/outline
# on the generated 400,000-entry (128 MB) session after BRANCHES (default 5) side branches were added to it, evenly
# spaced along its chain (a user message appended under each, then the leaf moved back to the chain's end): the first
# call, then CALLS (default 50) more, with the answer's size and segments, beside as many GET …/leaf (a read that does
# no work) and one GET …/tree for comparison. Settings:
# PORT (default 18130), JAVA_OPTS (default -Xmx320m, the heap the cold-read goals were measured with), JAR (another
# build), ARBOR_ARGS.
# Needs python3 (standard library only). Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18130}
JAVA_OPTS=${JAVA_OPTS:--Xmx320m}
BRANCHES=${BRANCHES:-5}
CALLS=${CALLS:-50}
BIG_SESSION=128MB

. bench/server.sh

python3 - "$BASE" "$big" "$BRANCHES" "$CALLS" <<'PY'
import http.client, json, statistics, sys, time, urllib.parse
base, session, branches, calls = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
url = urllib.parse.urlparse(base)
conn = http.client.HTTPConnection(url.hostname, url.port, timeout=300)

def call(method, path, body=None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    start = time.perf_counter()
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    data = response.read()
    if response.status >= 300:
        raise SystemExit(f"{method} {path}: {response.status} {data[:300]!r}")
    return (time.perf_counter() - start) * 1000, data

def pct(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]

_, data = call("GET", f"/sessions/{session}")
info = json.loads(data)
entries, end = info["entryCount"], info["leafId"]
for k in range(1, branches + 1):
    position = k * entries // (branches + 1)
    # BenchSessions names entry i hex8((i + 1) * 0x9E3779B1); the GET checks it.
    entry_id = format(((position + 1) * 0x9E3779B1) & 0xFFFFFFFF, "08x")
    call("GET", f"/sessions/{session}/entries/{entry_id}")
    call("PUT", f"/sessions/{session}/leaf", {"entryId": entry_id})
    call("POST", f"/sessions/{session}/entries",
         {"type": "message", "message": {"role": "user", "content": f"side branch {k} at entry {position}"}})
call("PUT", f"/sessions/{session}/leaf", {"entryId": end})

first, data = call("GET", f"/sessions/{session}/tree/outline")
outline = json.loads(data)
times = [call("GET", f"/sessions/{session}/tree/outline")[0] for _ in range(calls)]
leaf_times = [call("GET", f"/sessions/{session}/leaf")[0] for _ in range(calls)]
tree_ms, tree = call("GET", f"/sessions/{session}/tree")
print("| call | entries | branch points | segments | answer bytes | first ms | p50 ms | p99 ms | max ms | calls |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
print(f"| GET …/tree/outline | {outline['entryCount']:,} | {branches} | {len(outline['segments'])} | {len(data):,} "
      f"| {first:.0f} | {statistics.median(times):.0f} | {pct(times, 99):.0f} | {max(times):.0f} | {calls} |")
print(f"| GET …/leaf (for comparison: a read that does no work) | | | | | | {statistics.median(leaf_times):.1f} "
      f"| {pct(leaf_times, 99):.1f} | {max(leaf_times):.1f} | {calls} |")
print(f"| GET …/tree (for comparison) | {outline['entryCount']:,} | {branches} | | {len(tree):,} | {tree_ms:.0f} | | | | 1 |")
PY
echo >&2
echo "checkout $(git rev-parse --short HEAD), jar $jar, $(nproc) cores, $(java -version 2>&1 | head -n 1), JAVA_OPTS $JAVA_OPTS" >&2
