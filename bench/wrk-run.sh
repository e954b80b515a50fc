# Sourced by bench/load.sh and bench/replicas.sh: one wrk measurement as a Markdown table row.
# wrk_row <name> <threads> <connections> <duration> <base URL> <paths, comma-separated> [POST body]
# Prints | name | connections | requests/s | p50 ms | p99 ms | requests | errors |
wrk_row() {
	local name=$1 threads=$2 connections=$3 duration=$4 base=$5 paths=$6 body=${7:-}
	local method=GET
	[ -n "$body" ] && method=POST
	local line
	line=$(ARBOR_PATHS="$paths" ARBOR_METHOD="$method" ARBOR_BODY="$body" \
		wrk -t"$threads" -c"$connections" -d"$duration" --timeout 30s -s "$(pwd)/bench/wrk.lua" "$base" | grep '^RESULT')
	# RESULT <req/s> <p50 ms> <p99 ms> <max ms> <requests> <socket errors> <non-2xx>
	read -r _ rate p50 p99 max requests errors status <<<"$line"
	printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$connections" "$rate" "$p50" "$p99" "$requests" \
		"$((errors + status))"
}
