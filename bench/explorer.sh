#!/usr/bin/env bash
# The explorer in a real browser (docs/BENCHMARKS.md#the-explorer): runs ExplorerLargeSessionTests RUNS times
# (default 3), each in a fresh JVM on a freshly generated 400,000-entry session, and prints what each run measured in
# headless Chromium: the first screen of rows of a cold open (Arbor reads the file for it) and of a warm one (the page
# loaded again), from the page's navigation to the first rows drawn (the arbor:first-rows mark), and a jump by the
# scrollbar to the middle of the view until its rows are drawn. Then ExplorerBrowserTests once, for the time an entry
# appended over HTTP takes to show in the open page. Needs Chromium and chromedriver as the browser tests do.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
export ARBOR_REQUIRE_BROWSER=true
for run in $(seq "$RUNS"); do
	./mvnw -B -q test -Dtest=ExplorerLargeSessionTests -Dsurefire.failIfNoSpecifiedTests=false >/dev/null
	echo "run $run: $(cat target/explorer-timings.txt)"
done
./mvnw -B test -Dtest=ExplorerBrowserTests#anEntryAppendedOverHttp* | grep -o 'explorer: .*'
