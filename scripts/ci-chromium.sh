#!/usr/bin/env bash
# Installs Chromium and its chromedriver from Debian's packages (if they are not there) for the browser tests
# (dev.arbor.explorer), which find them at /usr/bin/chromium and /usr/bin/chromedriver. Debian builds both from one
# source, so their versions match, as chromedriver requires. Run as root, by .ci/run. Any failure fails CI: the
# browser tests must not pass by being skipped.
set -euo pipefail

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
	echo "CI: installing Chromium and chromedriver" >&2
	apt-get install -y -q chromium chromium-driver >/dev/null ||
		{ apt-get update -q >/dev/null && apt-get install -y -q chromium chromium-driver >/dev/null; } ||
		{ echo "CI: could not install Debian's chromium and chromium-driver (see above)" >&2; exit 1; }
fi

# The version line of one of them (the last line: Debian's launcher may complain about /dev/shm before it).
version() {
	local output
	if ! output=$("$1" --version 2>&1) || [[ ! $output =~ [0-9]+\.[0-9]+\.[0-9]+ ]]; then
		echo "CI: $1 does not run: $1 --version said: ${output:-nothing}" >&2
		exit 1
	fi
	tail -n 1 <<<"$output"
}
browser=$(version chromium)
driver=$(version chromedriver)
[[ $browser =~ [0-9]+\.[0-9]+\.[0-9]+ ]] && browser_build=${BASH_REMATCH[0]}
[[ $driver =~ [0-9]+\.[0-9]+\.[0-9]+ ]] && driver_build=${BASH_REMATCH[0]}
if [ "$browser_build" != "$driver_build" ]; then
	echo "CI: chromedriver does not match Chromium: $driver, for $browser" >&2
	exit 1
fi
echo "CI: $browser; $driver" >&2
