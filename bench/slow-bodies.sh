#!/usr/bin/env bash
# Slow bodies (docs/BENCHMARKS.md#slow-bodies-benchslow-bodiessh): N connections (default 500) each send the headers of
# POST /sessions/{id}/entries with Content-Length: 1000 and 13 bytes of the body, then stall; a connection that
# the server ends is opened again after REOPEN_DELAY seconds (default 1, as a client honouring Retry-After would;
# 0 at once), so that N stay open or come back all along. Meanwhile GET /actuator/health and GET /sessions/{id}
# are measured one after the other, each with a 2 s timeout, for DURATION seconds. Prints their p50, p99 and max
# latency and failures, and what became of the stalled requests. Settings: CONNECTIONS (default 500), DURATION
# (seconds, default 30), PORT (default 18080), JAVA_OPTS (default -Xmx512m), JAR (another build of Arbor),
# ARBOR_ARGS (its settings). Needs python3 (standard library only).
set -euo pipefail
cd "$(dirname "$0")/.."

CONNECTIONS=${CONNECTIONS:-500}
REOPEN_DELAY=${REOPEN_DELAY:-1}
DURATION=${DURATION:-30}
PORT=${PORT:-18080}
JAVA_OPTS=${JAVA_OPTS:--Xmx512m}
BIG_SESSION=none

. bench/server.sh
id=$(curl -fs -X POST "$BASE/sessions" -H 'Content-Type: application/json' -d '{"cwd":"/bench"}' | json 'd["id"]')
curl -fs -X POST "$BASE/sessions/$id/entries" -H 'Content-Type: application/json' \
	-d '{"type":"message","message":{"role":"user","content":"hello"}}' >/dev/null

# The stalling connections and the probes run in two processes, so that the stalling loop never delays a probe.
cat >"$work/stall.py" <<'PYTHON'
import selectors, socket, sys, time

port, session, connections, duration, reopen_delay = (int(sys.argv[1]), sys.argv[2], int(sys.argv[3]),
                                                      float(sys.argv[4]), float(sys.argv[5]))
head = (f"POST /sessions/{session}/entries HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        "Content-Length: 1000\r\n\r\n").encode() + b'{"type":"mess'  # 13 of the 1,000 body bytes
stop = time.monotonic() + duration
outcomes = {}  # what ended a stalled request: "HTTP <status>" or "closed without answer"
selector = selectors.DefaultSelector()
reopen_at = []  # when each ended connection is opened again

def open_one():
    s = socket.socket()
    s.setblocking(False)
    try:
        s.connect(("localhost", port))
    except BlockingIOError:
        pass
    selector.register(s, selectors.EVENT_WRITE)

def end(s, data):
    outcome = ("HTTP " + data[9:12].decode()) if data.startswith(b"HTTP/") else "closed without answer"
    outcomes[outcome] = outcomes.get(outcome, 0) + 1
    selector.unregister(s)
    s.close()
    reopen_at.append(time.monotonic() + reopen_delay)

for _ in range(connections):
    open_one()
while time.monotonic() < stop:
    now = time.monotonic()
    while reopen_at and reopen_at[0] <= now:
        reopen_at.pop(0)
        open_one()
    for key, events in selector.select(timeout=0.05):
        s = key.fileobj
        if events & selectors.EVENT_WRITE:
            try:
                s.send(head)  # small enough to go out in one send
                selector.modify(s, selectors.EVENT_READ)
            except OSError:
                end(s, b"")
            continue
        try:
            data = s.recv(4096)
        except OSError:
            data = b""
        if data and not data.startswith(b"HTTP/"):
            continue  # the status line comes in the first read; the rest is not needed
        end(s, data)
print(f"stalling at the end: {len(selector.get_map())} connections; requests the server ended: "
      + (", ".join(f"{n} × {o}" for o, n in sorted(outcomes.items())) or "none"))
PYTHON

cat >"$work/probe.py" <<'PYTHON'
import http.client, sys, time

port, session, duration = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
stop = time.monotonic() + duration
paths = {"GET /actuator/health": "/actuator/health", "GET /sessions/{id}": f"/sessions/{session}"}
results = {name: [] for name in paths}
failed = {name: 0 for name in paths}

def probe(path):
    started = time.monotonic()
    try:
        c = http.client.HTTPConnection("localhost", port, timeout=2)
        c.request("GET", path)
        r = c.getresponse()
        r.read()
        c.close()
        return (time.monotonic() - started) * 1000 if r.status == 200 else None
    except OSError:
        return None

while time.monotonic() < stop:
    for name, path in paths.items():
        latency = probe(path)
        if latency is None:
            failed[name] += 1
        else:
            results[name].append(latency)
    time.sleep(0.05)

def pct(values, p):
    return values[min(len(values) - 1, int(len(values) * p))] if values else float("nan")

print("| request | answered | p50 ms | p99 ms | max ms | failed or over 2 s |")
print("|---|---:|---:|---:|---:|---:|")
for name, values in results.items():
    values.sort()
    print(f"| {name} | {len(values)} | {pct(values, 0.5):.1f} | {pct(values, 0.99):.1f} | "
          f"{(values[-1] if values else float('nan')):.1f} | {failed[name]} |")
PYTHON

python3 "$work/stall.py" "$PORT" "$id" "$CONNECTIONS" "$((DURATION + 3))" "$REOPEN_DELAY" >"$work/stall.out" &
stalling=$!
sleep 3 # every connection opened and stalled
echo "While $CONNECTIONS connections stall their bodies (an ended one reopened after ${REOPEN_DELAY} s), ${DURATION} s:"
echo
python3 "$work/probe.py" "$PORT" "$id" "$DURATION"
wait "$stalling"
echo
cat "$work/stall.out"
echo >&2
echo "commit $(git rev-parse --short HEAD), $(nproc) cores, $(java -version 2>&1 | head -n 1), jar ${JAR:-built}, settings: ${ARBOR_ARGS:-defaults}" >&2
