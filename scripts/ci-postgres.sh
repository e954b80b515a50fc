#!/usr/bin/env bash
# Installs PostgreSQL from Debian's packages (if it is not there), starts its cluster and gives the postgres user the
# password the tests connect with (over TCP on localhost only, as the package configures it). Run as root, by
# .ci/run. Any failure fails CI: the PostgreSQL store's tests must not pass by being skipped.
set -euo pipefail

if ! command -v pg_lsclusters >/dev/null 2>&1; then
	echo "CI: installing PostgreSQL" >&2
	apt-get install -y -q postgresql >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q postgresql >/dev/null; }
fi
read -r version cluster _ < <(pg_lsclusters --no-header | head -1)
if [ -z "${version:-}" ]; then
	version=$(ls /usr/lib/postgresql | sort -n | tail -1)
	cluster=main
	pg_createcluster "$version" "$cluster"
fi
pg_ctlcluster "$version" "$cluster" start 2>/dev/null || pg_ctlcluster "$version" "$cluster" status >/dev/null
for attempt in $(seq 1 30); do
	if su postgres -c "psql -q -c 'SELECT 1'" >/dev/null 2>&1; then
		break
	fi
	sleep 1
done
su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD 'postgres'\""
echo "CI: PostgreSQL $version ($cluster) runs on localhost:5432" >&2
