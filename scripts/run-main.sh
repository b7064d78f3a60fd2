#!/usr/bin/env bash
# shellcheck disable=SC2317 # the do_* functions run through stage()
# iocoro's main job, from a fresh Debian 12 machine: build what the demo
# needs, boot the release kernel in QEMU and run the demo there.
#
#   deps       scripts/install-deps.sh
#   configure  cmake (the uapi headers committed in include/uapi/,
#              unless IOCORO_KERNEL_HEADERS is set)
#   build      cmake --build --target copychain: the app, libiocoro and
#              the BPF skeleton, nothing else (the demo script lands next
#              to the binary at configure)
#   kernel     kernel/build.sh release
#   initramfs  initramfs/build-initramfs.sh: the build tree in a guest
#              image, without ctest
#   demo       apps/copychain in the guest: IOCORO_DEMO_MIB MiB of random
#              bytes and a tree of small files copied by in-kernel
#              coroutines, checked with cmp and diff -r, timed next to cp
#              (apps/copychain/copychain-demo.sh)
#
# Each stage prints one line (its result and time; on a terminal, while it
# runs, its log's last line); its whole output goes to
# <build dir>-run/main/logs/<stage>.log. A failed stage prints its log's
# last lines and path. The demo's output follows the stages, then the
# verdict; the exit status is non-zero if any stage failed or was skipped.
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

stages_init "$run/logs" --brief 6
echo "run-main: build dir $build; each stage's output in $run/logs/<stage>.log"

kernel_obj() { cat "$run/kernel-obj"; }

do_kernel() {
	build_kernel release "$run/kernel-obj"
}

do_initramfs() {
	rm -f "$img"
	IOCORO_CTEST=0 initramfs/build-initramfs.sh "$build" "$img"
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
stage build --needs configure -- \
	cmake --build "$build" -j "$(nproc)" --target copychain
stage kernel --needs deps -- do_kernel
stage initramfs --needs build -- do_initramfs
stage demo --needs "kernel initramfs" -- do_demo

if stage_ok demo; then
	echo
	echo "the demo, in the guest on the release kernel ($run/guest-logs/output.log):"
	cat "$run/guest-logs/output.log"
	echo
fi
stages_summary "scripts/run-main.sh"
