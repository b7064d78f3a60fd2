#!/usr/bin/env bash
# Build the iocoro guest initramfs with dracut.
#
# Usage: initramfs/build-initramfs.sh BUILD_DIR OUT.img
#
# BUILD_DIR (a CMake build tree) is installed at the same absolute path in
# the image, so ctest's absolute paths work in the guest. Extra host paths
# can be added with IOCORO_EXTRA_INSTALL="/abs/path /other/path".
# IOCORO_CTEST=0 leaves out ctest and its ~30 MiB of libraries (faster boot);
# IOCORO_STUB_ICU=0 keeps the real 30 MiB ICU data library ctest links
# (by default a stub takes its place, see dracut/99iocoro/module-setup.sh).
# The image is uncompressed. Set IOCORO_DRACUT_VERBOSE=1 for dracut's chatter.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prog=build-initramfs

die() {
	echo "$prog: error: $*" >&2
	exit 1
}

[ $# -eq 2 ] || die "usage: $0 BUILD_DIR OUT.img"
build_dir=$1
out=$2

[ -d "$build_dir" ] || die "build dir '$build_dir' does not exist or is not a directory"
build_dir=$(cd "$build_dir" && pwd)
out_dir=$(dirname "$out")
[ -d "$out_dir" ] || die "output directory '$out_dir' does not exist"
out=$(cd "$out_dir" && pwd)/$(basename "$out")
case "$out/" in
"$build_dir"/*) die "output '$out' must not be inside the build dir '$build_dir' (it would be packed into itself)" ;;
esac

command -v dracut > /dev/null || die "dracut not found (install dracut-core; see scripts/install-deps.sh)"
sys_dracut=/usr/lib/dracut
if [ ! -f "$sys_dracut/dracut-init.sh" ] || [ ! -d "$sys_dracut/modules.d/99base" ]; then
	die "dracut's module tree $sys_dracut is missing or incomplete (dracut-core broken?)"
fi
module=$here/dracut/99iocoro
[ -f "$module/module-setup.sh" ] || die "dracut module $module missing"

for p in ${IOCORO_EXTRA_INSTALL-}; do
	case "$p" in
	/*) [ -e "$p" ] || die "IOCORO_EXTRA_INSTALL: '$p' does not exist" ;;
	*) die "IOCORO_EXTRA_INSTALL: '$p' is not an absolute path" ;;
	esac
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/iocoro-initramfs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# A private dracut base dir: the system's files and modules plus ours, so
# nothing is written to /usr/lib/dracut. Empty config so host settings
# (/etc/dracut.conf*) do not leak in.
base=$tmp/dracut
mkdir -p "$base/modules.d" "$tmp/conf.d" "$tmp/work"
for f in "$sys_dracut"/*; do
	[ "$(basename "$f")" = modules.d ] && continue
	ln -s "$f" "$base/"
done
for m in "$sys_dracut"/modules.d/*; do
	ln -s "$m" "$base/modules.d/"
done
ln -sfn "$module" "$base/modules.d/99iocoro"
# base depends on udev-rules (udevadm, systemd libraries: ~12 MiB). The
# guest never gets to udev: the iocoro hook runs at cmdline and never
# returns. An empty module of that name keeps dracut's dependency check happy.
rm -f "$base/modules.d/95udev-rules"
mkdir -p "$base/modules.d/95udev-rules"
cat > "$base/modules.d/95udev-rules/module-setup.sh" << 'STUB'
#!/bin/bash
# iocoro: stands in for dracut's udev-rules module; installs nothing
check() { return 0; }
depends() { return 0; }
install() { return 0; }
STUB
: > "$tmp/dracut.conf"

quiet=(--quiet)
[ "${IOCORO_DRACUT_VERBOSE:-0}" = 1 ] && quiet=()

start=$(date +%s.%N)
if ! dracutbasedir=$base IOCORO_BUILD_DIR=$build_dir \
	IOCORO_EXTRA_INSTALL=${IOCORO_EXTRA_INSTALL-} IOCORO_CTEST=${IOCORO_CTEST:-1} \
	IOCORO_STUB_ICU=${IOCORO_STUB_ICU:-1} \
	dracut "${quiet[@]}" --force --no-kernel --no-hostonly --no-hostonly-cmdline \
	--no-compress --nostrip --no-early-microcode \
	--conf "$tmp/dracut.conf" --confdir "$tmp/conf.d" --tmpdir "$tmp/work" \
	-m "base iocoro" --add-drivers "" \
	"$out" > "$tmp/dracut.log" 2>&1; then
	cat "$tmp/dracut.log" >&2
	die "dracut failed building '$out'"
fi
# dracut reports some install failures only as messages
if grep -E "FAILED|ERROR|dracut module 'iocoro' .*(not|cannot)" "$tmp/dracut.log" > /dev/null; then
	cat "$tmp/dracut.log" >&2
	rm -f "$out"
	die "dracut reported errors building '$out'"
fi
end=$(date +%s.%N)
printf '%s: %s (%s MiB) from %s in %.1f s\n' "$prog" "$out" \
	"$(($(stat -c %s "$out") / 1048576))" "$build_dir" "$(echo "$end - $start" | bc)"
