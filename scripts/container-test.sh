#!/usr/bin/env bash
# Runs ContainerImageTests (the image from the real Dockerfile, a session kept across a restart on its volume) against
# a real Docker engine on a machine like this project's: Debian, root, no engine running, Docker Hub out of reach,
# only Debian's mirror and Maven Central reachable. Re-runnable; each step is skipped when already done:
#
#   1. installs docker.io and debootstrap when missing;
#   2. starts dockerd when none answers (no iptables here: containers get no NAT, so the image build uses the host's
#      network); it is stopped again at the end unless ARBOR_KEEP_DOCKERD=1;
#   3. builds stand-ins for the Dockerfile's base images when missing: a minimal Debian with OpenJDK 21 (JDK for the
#      build stage, JRE for the runtime), debootstrapped from the machine's Debian mirror and `docker import`ed;
#   4. runs the test with those bases, and fails unless it really ran (a skipped test is a failure here).
#
# Exit status: 0 the test ran and passed; 1 it failed, or was skipped; 3 no engine or base image could be had here
# (packages, dockerd, debootstrap), so the test could not run: CI may tell that apart from a failing image.
#
# Environment: ARBOR_BASE_SUITE (default trixie: the first Debian release with OpenJDK 21), ARBOR_DEBIAN_MIRROR
# (default: the machine's own, from /etc/apt/sources.list*), ARBOR_DOCKER_STORAGE_DRIVER (default overlay2 where the
# kernel has overlayfs, falling back to vfs), ARBOR_DOCKERD_LOG (default /var/log/arbor-dockerd.log),
# ARBOR_KEEP_DOCKERD=1 (leave a dockerd this script started running, for faster re-runs).
set -euo pipefail
cd "$(dirname "$0")/.."

SUITE=${ARBOR_BASE_SUITE:-trixie}
JDK_TAG=arbor-base/jdk:21
JRE_TAG=arbor-base/jre:21
DOCKERD_LOG=${ARBOR_DOCKERD_LOG:-/var/log/arbor-dockerd.log}
WORK=/var/tmp/arbor-container-test
REPORT=target/surefire-reports/TEST-dev.arbor.ContainerImageTests.xml

started=$SECONDS
step() { echo "container-test [$((SECONDS - started))s]: $*" >&2; }
fail() { echo "container-test: FAILED: $*" >&2; exit 1; }
unavailable() { echo "container-test: NOT RUN: $*" >&2; exit 3; }

# 1. Packages.
missing=()
command -v dockerd >/dev/null || missing+=(docker.io)
command -v debootstrap >/dev/null || missing+=(debootstrap)
if ((${#missing[@]})); then
	step "installing ${missing[*]}"
	apt-get update -q || unavailable "apt-get update"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null \
		|| unavailable "apt-get install ${missing[*]}"
fi

# 2. The engine.
dockerd_pid=
stop_dockerd() {
	if [[ -n $dockerd_pid && ${ARBOR_KEEP_DOCKERD:-0} != 1 ]]; then
		step "stopping dockerd (pid $dockerd_pid)"
		kill "$dockerd_pid" 2>/dev/null || true
		for _ in $(seq 60); do kill -0 "$dockerd_pid" 2>/dev/null || break; sleep 0.5; done
	fi
}
trap stop_dockerd EXIT

start_dockerd() { # driver
	step "starting dockerd --storage-driver=$1 (log: $DOCKERD_LOG)"
	dockerd --iptables=false --storage-driver="$1" >>"$DOCKERD_LOG" 2>&1 &
	dockerd_pid=$!
	for _ in $(seq 120); do
		docker info >/dev/null 2>&1 && return 0
		kill -0 "$dockerd_pid" 2>/dev/null || break
		sleep 0.5
	done
	kill "$dockerd_pid" 2>/dev/null || true
	wait "$dockerd_pid" 2>/dev/null || true
	dockerd_pid=
	return 1
}

if ! docker info >/dev/null 2>&1; then
	if [[ -S /var/run/docker.sock ]] && ! pgrep -x dockerd >/dev/null; then
		rm -f /var/run/docker.sock /var/run/docker.pid # left by a dockerd that was killed
	fi
	pgrep -x dockerd >/dev/null && unavailable "a dockerd runs but does not answer; see $DOCKERD_LOG"
	driver=${ARBOR_DOCKER_STORAGE_DRIVER:-}
	if [[ -z $driver ]]; then
		grep -qw overlay /proc/filesystems && driver=overlay2 || driver=vfs
	fi
	if ! start_dockerd "$driver"; then
		[[ $driver != vfs ]] || unavailable "dockerd did not start; see $DOCKERD_LOG"
		step "dockerd did not start with $driver; trying vfs"
		start_dockerd vfs || unavailable "dockerd did not start; see $DOCKERD_LOG"
	fi
fi
step "docker engine $(docker version --format '{{.Server.Version}}') ($(docker info --format '{{.Driver}}'))"

# 3. Base images.
debian_mirror() {
	local uri
	uri=$(grep -h -E '^[[:space:]]*(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
		/etc/apt/sources.list.d/*.list 2>/dev/null \
		| grep -v -- '-security' | grep -o -E 'https?://[^ ]+/debian/?' | head -n 1 || true)
	echo "${uri:-http://deb.debian.org/debian}"
}

build_base() { # tag package
	local tag=$1 package=$2 rootfs arch
	rootfs=$WORK/rootfs-${tag//[^a-z0-9]/-}
	arch=$(dpkg --print-architecture)
	mkdir -p "$WORK/debs"
	# A run interrupted inside debootstrap can leave /proc and /sys mounted in the tree: unmount before removing.
	for mount in dev/pts dev proc sys; do umount -l "$rootfs/$mount" 2>/dev/null || true; done
	rm -rf --one-file-system "$rootfs"
	step "debootstrapping $SUITE with $package from $MIRROR for $tag"
	debootstrap --variant=minbase --include="ca-certificates,$package" --cache-dir="$WORK/debs" \
		"$SUITE" "$rootfs" "$MIRROR" >"$WORK/debootstrap-${package}.log" 2>&1 \
		|| unavailable "debootstrap; see $WORK/debootstrap-${package}.log"
	# The stand-ins trust what this machine trusts: its local CAs (here, the TLS-inspecting egress proxy's, without
	# which the wrapper's download from Maven Central fails the certificate check), into the system and Java stores.
	if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
		cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
		mount -t proc proc "$rootfs/proc"
		chroot "$rootfs" update-ca-certificates >>"$WORK/debootstrap-${package}.log" 2>&1 \
			|| { umount "$rootfs/proc"; unavailable "update-ca-certificates; see $WORK/debootstrap-${package}.log"; }
		umount "$rootfs/proc"
	fi
	rm -rf --one-file-system "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/tmp/*
	# eclipse-temurin's conventions: JAVA_HOME set, java on the PATH.
	tar -C "$rootfs" --numeric-owner -c . | docker import \
		--change "ENV JAVA_HOME=/usr/lib/jvm/java-21-openjdk-$arch" \
		--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
		--change 'ENV LANG=C.UTF-8' \
		--change 'CMD ["bash"]' \
		- "$tag" >/dev/null
	rm -rf --one-file-system "$rootfs"
}

MIRROR=${ARBOR_DEBIAN_MIRROR:-$(debian_mirror)}
docker image inspect "$JRE_TAG" >/dev/null 2>&1 || build_base "$JRE_TAG" openjdk-21-jre-headless
docker image inspect "$JDK_TAG" >/dev/null 2>&1 || build_base "$JDK_TAG" openjdk-21-jdk-headless
rm -rf --one-file-system "$WORK/debs"

# 4. The test. Ryuk (Testcontainers' reaper, an image from Docker Hub) cannot be pulled here; the test removes what it
# made. The engine publishes ports through its userland proxy on the host's addresses: reach them as localhost.
image_ids() { for tag in arbor-container-test:latest arbor-container-test:build; do
	docker image inspect --format '{{.Id}}' "$tag" 2>/dev/null || true
done; }
previous_images=$(image_ids)
rm -f "$REPORT"
step "running ContainerImageTests"
TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=localhost ./mvnw -B test -Dtest=ContainerImageTests \
	-Darbor.container.build-image="$JDK_TAG" -Darbor.container.runtime-image="$JRE_TAG" \
	-Darbor.container.build-network=host \
	|| fail "the Maven run failed"

[[ -f $REPORT ]] || fail "no test report: the test did not run"
suite=$(grep -o -m 1 '<testsuite [^>]*>' "$REPORT")
for attribute in 'tests="[1-9]' 'skipped="0"' 'failures="0"' 'errors="0"'; do
	grep -q -E "$attribute" <<<"$suite" || fail "the test was skipped or did not pass: $suite"
done

# The images this build replaced (a change to the sources) are no cache for the next one: free their layers, which
# would otherwise pile up, untagged, with every change.
current_images=$(image_ids)
for id in $previous_images; do
	grep -qx -- "$id" <<<"$current_images" || docker image rm "$id" >/dev/null 2>&1 || true
done
step "ContainerImageTests ran and passed"
