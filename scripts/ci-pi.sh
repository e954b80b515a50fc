#!/usr/bin/env bash
# Installs upstream pi (@mariozechner/pi-coding-agent, the version bench/agent/package.json pins) from the npm
# registry into a scratch folder, for the tests that compare Arbor with pi's own code (they find it through
# ARBOR_TEST_PI, which .ci/run sets to the folder printed last). Node comes from the machine, or from Debian's
# packages where it has none. Any failure fails CI: those tests must not pass by being skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

folder=${ARBOR_TEST_PI:-/tmp/arbor-pi}
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	echo "CI: installing Node and npm" >&2
	apt-get install -y -q nodejs npm >/dev/null ||
		{ apt-get update -q >/dev/null && apt-get install -y -q nodejs npm >/dev/null; } ||
		{ echo "CI: could not install Debian's nodejs and npm (see above)" >&2; exit 1; }
fi
mkdir -p "$folder"
cp bench/agent/package.json "$folder/package.json"
npm install --prefix "$folder" --no-audit --no-fund --loglevel=error >&2 ||
	{ echo "CI: npm could not install pi into $folder (see above)" >&2; exit 1; }
version=$(node -p "require('$folder/node_modules/@mariozechner/pi-coding-agent/package.json').version")
echo "CI: Node $(node --version), pi-coding-agent $version in $folder" >&2
echo "$folder"
