#!/usr/bin/env bash
# Cold start (docs/BENCHMARKS.md#cold-start-before-and-after-benchcold-startsh): a fresh JVM per run, timed from launch
# to the first healthy answer of /actuator/health, with Boot's "Started … in" and the CPU time the JVM had used by then
# (utime + stime from /proc: on a shared machine it moves less with other load than the wall clock). One row per way of
# launching Arbor (WAYS, default all five):
#   jar        java -jar target/arbor-*.jar, the nested jar, on the default java (what cold-reads.sh starts)
#   extracted  the jar extracted (java -Djarmode=tools -jar … extract), java -jar on the extracted arbor.jar
#   cds        extracted, with a CDS archive of a training run that stops after the refresh
#              (-XX:ArchiveClassesAtExit, -Dspring.context.exit=onRefresh), as the image does on Java 21 to 24
#   cds-c1     cds, with the JIT's first tier only (-XX:TieredStopAtLevel=1): no optimizing compiler at start
#   aot        extracted, on JAVA25 (default /usr/lib/jvm/temurin-25-jdk-amd64), with an AOT cache trained the same
#              way (-XX:AOTCacheOutput), as the image does on Java 25
# and per sessions folder: an empty one, and one holding the generated 400,000-entry (128 MB) session (BIG_SESSION,
# as in cold-reads.sh; none leaves it out): start-up must not grow with the folder. RUNS (default 5) fresh processes
# per way and folder, interleaved so that a burst of other load falls on every way alike. Settings: JAVA_OPTS
# (default -Xmx320m, as cold-reads.sh), PORT (default 18080), JAR (another build), ARBOR_ARGS. Needs python3
# (standard library only). Prints a Markdown table: min–max (median) of each figure.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18080}
JAVA_OPTS=${JAVA_OPTS:--Xmx320m}
RUNS=${RUNS:-5}
WAYS=${WAYS:-jar extracted cds cds-c1 aot}
JAVA25=${JAVA25:-/usr/lib/jvm/temurin-25-jdk-amd64}
BIG_SESSION=${BIG_SESSION:-128MB}

. bench/server.sh
stop_server

# The extracted application and its trained caches, made once from the jar under test. The training runs get a
# folder of their own: what they see of the sessions folder is not what the cache keeps.
app="$work/app"
java -Djarmode=tools -jar "$jar" extract --destination "$app" --application-filename arbor.jar >/dev/null
# A cache holds the class path as given: the jar by the same absolute path in training and runs.
train() { # java, cache option
	# shellcheck disable=SC2086
	"$1" $JAVA_OPTS "$2" -Dspring.context.exit=onRefresh -jar "$app/arbor.jar" --arbor.storage.dir="$work/training" \
		--logging.level.root=WARN >"$work/training.log" 2>&1 || { cat "$work/training.log" >&2; exit 1; }
}
case " $WAYS " in *" cds"*) train java -XX:ArchiveClassesAtExit="$app/arbor.jsa" ;; esac
case " $WAYS " in *" aot "*) train "$JAVA25/bin/java" -XX:AOTCacheOutput="$app/arbor.aot" ;; esac

# The command line of a way, up to the application's arguments.
launch() {
	case $1 in
	jar) echo "java $JAVA_OPTS -jar $jar" ;;
	extracted) echo "java $JAVA_OPTS -jar $app/arbor.jar" ;;
	cds) echo "java $JAVA_OPTS -XX:SharedArchiveFile=$app/arbor.jsa -jar $app/arbor.jar" ;;
	cds-c1) echo "java $JAVA_OPTS -XX:TieredStopAtLevel=1 -XX:SharedArchiveFile=$app/arbor.jsa -jar $app/arbor.jar" ;;
	aot) echo "$JAVA25/bin/java $JAVA_OPTS -XX:AOTCache=$app/arbor.aot -jar $app/arbor.jar" ;;
	esac
}

# One fresh start: prints the way, the folder, ms to healthy, Boot's seconds and the JVM's CPU seconds by then.
once() { # way, folder name, folder
	: >"$work/server.log"
	local start end cpu started
	start=$(date +%s%N)
	# shellcheck disable=SC2046
	$(launch "$1") --server.port="$PORT" --arbor.storage.dir="$3" --logging.level.root=WARN \
		--logging.level.dev.arbor.ArborApplication=INFO $ARBOR_ARGS >>"$work/server.log" 2>&1 &
	server=$!
	for _ in $(seq 1200); do
		curl -m 1 -fs "$BASE/actuator/health" >/dev/null && break
		sleep 0.05
	done
	end=$(date +%s%N)
	curl -m 1 -fs "$BASE/actuator/health" >/dev/null || { cat "$work/server.log" >&2; exit 1; }
	cpu=$(awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$server/stat")
	started=$(grep -o 'Started [A-Za-z]* in [0-9.]*' "$work/server.log" | grep -o '[0-9.]*$' || echo nan)
	stop_server
	echo "$1 $2 $(((end - start) / 1000000)) $started $cpu"
}

mkdir -p "$work/empty"
folders="empty"
[ "$BIG_SESSION" != none ] && folders="empty big"
for run in $(seq "$RUNS"); do
	for folder in $folders; do
		dir="$work/empty"
		[ "$folder" = big ] && dir="$work/sessions"
		for way in $WAYS; do
			once "$way" "$folder" "$dir"
		done
	done
	echo "run $run of $RUNS done, load $(cut -d ' ' -f 1-3 /proc/loadavg)" >&2
done >"$work/results.txt"

python3 - "$work/results.txt" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
def summary(values, unit, digits):
    values = sorted(float(v) for v in values if v != "nan")
    if not values:
        return "n/a"
    fmt = f"{{:.{digits}f}}"
    return f"{fmt.format(values[0])}–{fmt.format(values[-1])} ({fmt.format(statistics.median(values))}) {unit}"
print("| way | sessions folder | launch to healthy | Boot's \"Started in\" | JVM CPU until healthy | runs |")
print("|---|---|---:|---:|---:|---:|")
keys = []
for way, folder, *_ in rows:
    if (way, folder) not in keys:
        keys.append((way, folder))
for way, folder in keys:
    mine = [r for r in rows if r[0] == way and r[1] == folder]
    print(f"| {way} | {folder} | {summary([r[2] for r in mine], 'ms', 0)} | {summary([r[3] for r in mine], 's', 2)}"
          f" | {summary([r[4] for r in mine], 's', 1)} | {len(mine)} |")
PY
echo >&2
echo "checkout $(git rev-parse --short HEAD), jar $jar, $(nproc) cores, $(java -version 2>&1 | head -n 1)," \
	"$("$JAVA25/bin/java" -version 2>&1 | head -n 1), JAVA_OPTS $JAVA_OPTS, load at the end $(cut -d ' ' -f 1-3 /proc/loadavg)" >&2
