#!/usr/bin/env bash
# Build upstream liburing's test suite from Debian's source package, for
# the regression stage (tests/liburing/regress.sh). Nothing of it is in
# the repository: the source comes from Debian's archive, checked by apt
# (signed Release file) and dpkg-source (the .dsc's checksums), and the
# tests are built and cached outside the work tree. The fixes of
# tests/liburing/patches/ (races of the tests themselves, each patch says
# which and why) are applied on top.
#
# Usage: tests/liburing/build-suite.sh
#
# The last line printed is the directory holding the tests (*.t):
# $IOCORO_CACHE/liburing-<version>-<patches' hash>/test (default cache
# /var/cache/iocoro). Built once per version and set of patches; the package's own apt state (a deb-src list of
# its own, in a temporary directory) leaves the system's apt alone.
set -euo pipefail

# bookworm's, the version of the system's liburing-dev: a released
# version that its archive keeps, so that the expected results
# (tests/liburing/expected.txt) stay true
version=2.3-3
suite=bookworm
mirror=${IOCORO_DEBIAN_MIRROR:-http://deb.debian.org/debian}

die() {
	echo "build-suite: $*" >&2
	exit 1
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/stages.sh
. "$here/../../scripts/lib/stages.sh" # stage_key
shopt -s nullglob
patches=("$here"/patches/*.patch)
shopt -u nullglob
key=$(stage_key "${patches[@]}" | cut -c1-8)
cache=${IOCORO_CACHE:-/var/cache/iocoro}/liburing-$version-$key
if [ -f "$cache/.built" ]; then
	set -- "$cache"/test/*.t
	echo "build-suite: liburing $version tests built before ($# tests)"
	echo "$cache/test"
	exit 0
fi
for c in apt-get dpkg-source patch make cc; do
	command -v "$c" >/dev/null || die "$c not found (scripts/install-deps.sh installs it)"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/liburing-suite.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/lists/partial" "$tmp/src"
echo "deb-src $mirror $suite main" >"$tmp/sources.list"
apt=(-o Dir::Etc::SourceList="$tmp/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o Dir::State::Lists="$tmp/lists" -o Dir::Cache="$tmp/cache"
	-o APT::Sandbox::User=root)

echo "build-suite: fetching liburing $version source from $mirror ($suite)"
apt-get "${apt[@]}" -qq update || die "apt-get update of $mirror $suite (deb-src) failed"
(cd "$tmp/src" && apt-get "${apt[@]}" -qq source --download-only "liburing=$version" >/dev/null) ||
	die "apt-get source liburing=$version failed: is $suite's archive reachable?"
# (apt checked the .dsc against the signed index; without debian-keyring
# dpkg-source warns that it cannot check the .dsc's own signature)
dpkg-source -x "$tmp/src/liburing_$version.dsc" "$tmp/liburing" >"$tmp/dsc.log" 2>&1 ||
	{ cat "$tmp/dsc.log" >&2; die "dpkg-source -x liburing_$version.dsc failed"; }

cd "$tmp/liburing"
for p in "${patches[@]}"; do
	patch -s -p1 <"$p" || die "$(basename "$p") does not apply to liburing $version"
	echo "build-suite: applied $(basename "$p")"
done
echo "build-suite: building liburing $version and its tests"
./configure >"$tmp/build.log" 2>&1 || { tail -20 "$tmp/build.log" >&2; die "configure failed"; }
if ! { make -C src -j"$(nproc)" && make -C test -j"$(nproc)"; } >>"$tmp/build.log" 2>&1; then
	grep -E 'error|Error' "$tmp/build.log" | head -20 >&2
	die "build failed"
fi
rm -rf "$cache"
mkdir -p "$cache/test"
cp test/*.t "$cache/test/"
touch "$cache/.built"
set -- "$cache"/test/*.t
echo "build-suite: $# tests in $cache/test"
echo "$cache/test"
