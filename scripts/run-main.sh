#!/usr/bin/env bash
# shellcheck disable=SC2317 # the do_* functions run through stage()
# iocoro's main job, from a fresh Debian 12 machine: build everything, boot
# the release kernel in QEMU and run the demo there.
#
#   deps       scripts/install-deps.sh
#   configure  cmake (the uapi headers committed in include/uapi/,
#              unless IOCORO_KERNEL_HEADERS is set)
#   build      cmake --build
#   kernel     kernel/build.sh release
#   initramfs  initramfs/build-initramfs.sh: the build tree in a guest image
#   demo       apps/copychain in the guest: IOCORO_DEMO_MIB MiB of random
#              bytes and a tree of small files copied by in-kernel
#              coroutines, checked with cmp and diff -r
#              (apps/copychain/copychain-demo.sh); the output is printed
#              at the end
#
# Usage: scripts/run-main.sh
# Environment:
#   IOCORO_BUILD_DIR        CMake build dir (default build/); run artifacts
#                           go to <build dir>-run/main/
#   IOCORO_KERNEL_HEADERS   other exported uapi headers to build against
#   IOCORO_DEMO_MIB         size of the file copychain copies (default 8)
#   IOCORO_GUEST_TIMEOUT    QEMU timeout in s (default 600)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
# shellcheck source=scripts/lib/stages.sh
. "$root/scripts/lib/stages.sh"
# shellcheck source=scripts/lib/build-dir.sh
. "$root/scripts/lib/build-dir.sh"

build=$(iocoro_build_dir "$root")
run=$build-run/main
img=$run/guest-initramfs.img
mib=${IOCORO_DEMO_MIB:-8}

stages_init "$run/logs"
echo "run-main: build dir $build, logs and guest image in $run"

kernel_obj() { cat "$run/kernel-obj"; }

do_kernel() {
	build_kernel release "$run/kernel-obj"
}

do_initramfs() {
	rm -f "$img"
	initramfs/build-initramfs.sh "$build" "$img"
}

do_demo() {
	initramfs/run-guest.sh --kernel "$(kernel_obj)/arch/x86/boot/bzImage" \
		--initrd "$img" --timeout "${IOCORO_GUEST_TIMEOUT:-600}" \
		--log-dir "$run/guest-logs" --quiet -- \
		"$build/apps/copychain/copychain-demo.sh" "$mib"
}

stage deps -- scripts/install-deps.sh
stage configure --needs deps -- \
	cmake -S "$root" -B "$build" -DIOCORO_KERNEL_HEADERS="${IOCORO_KERNEL_HEADERS:-}"
stage build --needs configure -- cmake --build "$build" -j "$(nproc)"
stage kernel --needs deps -- do_kernel
stage initramfs --needs build -- do_initramfs
stage demo --needs "kernel initramfs" -- do_demo

rc=0
stages_summary "scripts/run-main.sh" || rc=1
if [ -s "$run/guest-logs/output.log" ] && stage_ok kernel && stage_ok initramfs; then
	echo
	echo "==== demo output (guest, release kernel; log: $run/guest-logs/output.log) ===="
	cat "$run/guest-logs/output.log"
fi
exit "$rc"
