#!/usr/bin/env bash
# Arbor beside a running agent (docs/BENCHMARKS.md#living-beside-an-agent-benchlive-agentsh-benchlive-tailsh): the
# upstream pi agent's own SessionManager (pi-coding-agent 0.73.1 under Node.js, appendFileSync and no lock, as the agent
# writes) appends $COUNT user messages to a session while $COUNT more are appended through Arbor's HTTP API ($CLIENTS
# clients at once). Then it counts what survived in the file (each writer's lines, exactly once, and lines that do not
# parse) and compares the file with what Arbor serves (entry count, leaf) and with what a /sessions/{id}/events stream
# announced.
# Needs Node.js 20 and npm (the package is installed into a temp dir). Settings: PORT (default 18080), COUNT
# (default 200), CLIENTS (default 4), PAUSE_MS (the agent's largest pause between appends, default 3), JAR (another
# build of Arbor, e.g. an older commit's, to measure before and after), JAVA_OPTS (default -Xmx1g).
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18080}
COUNT=${COUNT:-200}
CLIENTS=${CLIENTS:-4}
PAUSE_MS=${PAUSE_MS:-3}
JAVA_OPTS=${JAVA_OPTS:--Xmx1g}
BIG_SESSION=none

. bench/server.sh

echo "Installing the upstream agent's package ..." >&2
mkdir -p "$work/agent"
cp bench/agent/package.json bench/agent/upstream-writer.mjs "$work/agent/"
(cd "$work/agent" && npm install --silent --no-audit --no-fund >/dev/null 2>&1)

sid=$(curl -fs -X POST "$BASE/sessions" -H 'Content-Type: application/json' -d '{"cwd":"/bench","title":"beside an agent"}' | json 'd["id"]')
# The agent writes nothing to a session without an assistant message (it holds entries back until one exists).
curl -fs -X POST "$BASE/sessions/$sid/entries" -H 'Content-Type: application/json' \
	-d '{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"ready"}],"provider":"anthropic","model":"claude-sonnet-4-5"}}' >/dev/null
file=$(ls "$work"/sessions/*_"$sid".jsonl)

curl -sN "$BASE/sessions/$sid/events" >"$work/events.txt" &
events=$!
sleep 1

node "$work/agent/upstream-writer.mjs" "$file" "$COUNT" "$PAUSE_MS" "from-agent" >"$work/agent-ids.txt" &
agent=$!
seq 0 $((COUNT - 1)) | xargs -P "$CLIENTS" -I{} curl -s -o /dev/null -w '%{http_code}\n' -X POST "$BASE/sessions/$sid/entries" \
	-H 'Content-Type: application/json' -d '{"type":"message","message":{"role":"user","content":"from-arbor {}"}}' \
	>"$work/arbor-status.txt"
wait "$agent"
sleep 3
kill "$events" 2>/dev/null || true
wait "$events" 2>/dev/null || true

served=$(curl -fs "$BASE/sessions/$sid")
python3 - "$file" "$work/agent-ids.txt" "$work/arbor-status.txt" "$work/events.txt" "$served" "$COUNT" <<'PY'
import json, sys
path, agent_ids, statuses, events_path, served, count = sys.argv[1:7]
count = int(count)
raw = open(path, 'rb').read()
lines = raw.split(b'\n')
torn = 0
agent, arbor = {}, {}
entries = 0
for line in lines[1:]:
    if not line.strip():
        continue
    try:
        entry = json.loads(line)
    except ValueError:
        torn += 1
        continue
    entries += 1
    content = entry.get('message', {}).get('content')
    if isinstance(content, str) and content.startswith('from-agent '):
        agent[content] = agent.get(content, 0) + 1
    elif isinstance(content, str) and content.startswith('from-arbor '):
        arbor[content] = arbor.get(content, 0) + 1
acknowledged = sum(1 for s in open(statuses) if s.strip() == '201')
announced = 0
for line in open(events_path):
    if line.startswith('data:') and '"from-agent ' in line:
        announced += 1
served = json.loads(served)
print(f"| agent lines written by appendMessage | {len(open(agent_ids).read().split())} |")
print(f"| agent lines in the file, once | {sum(1 for v in agent.values() if v == 1)} of {count} |")
print(f"| Arbor appends answered 201 | {acknowledged} of {count} |")
print(f"| Arbor lines in the file, once | {sum(1 for v in arbor.values() if v == 1)} of {count} |")
print(f"| lines that do not parse | {torn} |")
print(f"| entries in the file / served entryCount | {entries} / {served['entryCount']} |")
print(f"| agent entries announced on the session's event stream | {announced} |")
PY
