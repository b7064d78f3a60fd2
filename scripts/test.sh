#!/usr/bin/env bash
# iocoro's test command, from a fresh Debian 12 machine to a verdict:
#
#   deps       scripts/install-deps.sh
#   configure  cmake (the uapi headers committed in include/uapi/,
#              unless IOCORO_KERNEL_HEADERS is set)
#   build      cmake --build
#   unit       ctest -L 'unit|check' on the host (cmocka, and checks of the
#              tree: among them that include/uapi/ is the series' export)
#   kernel     kernel/build.sh debug (cached when nothing changed)
#   initramfs  initramfs/build-initramfs.sh: the build tree in a guest image
#   guest      ctest -L guest -j2 inside QEMU on the debug kernel
#   selftest   initramfs/selftest.sh: the guest harness checks itself
#   docs       tests/docs/run-blocks.sh: the docs' runnable blocks, as
#              printed, on the debug kernel
#   regress    tests/liburing/regress.sh: upstream liburing's test suite
#              (Debian's source) and the regress cases on the stock kernel
#              (kernel/build.sh stock: same tree and config, no series) and
#              on ours, judged against tests/liburing/expected.txt
#
# Usage: scripts/test.sh
# Environment:
#   IOCORO_BUILD_DIR        CMake build dir (default build/, relative to the
#                           repository root); run artifacts go to
#                           <build dir>-run/test/
#   IOCORO_KERNEL_HEADERS   other exported uapi headers to build against
#   IOCORO_GUEST_TIMEOUT    QEMU timeout of the guest stage in s (default 1200)
#   IOCORO_GUEST_JOBS       guest tests run at once (ctest -j, default 2: the
#                           guest's 2 CPUs; tests that time things are
#                           RUN_SERIAL); a splat's verdict then names every
#                           test running when it happened
#   IOCORO_GUEST=always     run the guest tests even if they passed before
#                           on the same kernel with the same binaries
#   IOCORO_SELFTEST=always  run the harness self-test and the docs' blocks
#                           even if they passed before for the same inputs
#   IOCORO_REGRESS=always   run the regression stage's guests even if their
#                           results are remembered for the same inputs
#
# Every stage runs even after an earlier failure unless it needs that
# stage's result; the exit status is non-zero if any stage failed or was
# skipped. A summary with each stage's result and time ends the output.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
# shellcheck source=scripts/lib/stages.sh
. "$root/scripts/lib/stages.sh"
# shellcheck source=scripts/lib/build-dir.sh
. "$root/scripts/lib/build-dir.sh"

build=$(iocoro_build_dir "$root")
run=$build-run/test
img=$run/guest-initramfs.img
jobs=$(nproc)

stages_init "$run/logs"
echo "test: build dir $build, logs and guest image in $run"

kernel_obj() { cat "$run/kernel-obj"; }

do_kernel() {
	build_kernel debug "$run/kernel-obj"
}

do_initramfs() {
	rm -f "$img"
	if guest_cached; then
		echo "initramfs: not needed, the guest tests passed before with these inputs"
		return 0
	fi
	initramfs/build-initramfs.sh "$build" "$img"
}

# Everything the guest stage runs: the kernel, the build tree the image
# carries (its binaries, scripts and test lists; not CMake's own files,
# nor ctest's records, nor the manifest unit_install_tutorial's install
# leaves, which names a temporary prefix), the guest harness and this
# script. A build from the same sources at the same path gives the same
# key.
guest_key() {
	stage_key "$(kernel_obj)/arch/x86/boot/bzImage" initramfs/*.sh \
		initramfs/dracut/*/* scripts/test.sh -s "${IOCORO_GUEST_JOBS:-2}" \
		-x './Testing/*' -x '*/CMakeFiles/*' -x '*/CMakeCache.txt' \
		-x '*/install_manifest.txt' -x '*.img' "$build"
}

# The guest tests. A pass is remembered, like the self-test's, for the same
# inputs (guest_key): running them again on the same kernel and binaries
# proves nothing new. IOCORO_GUEST=always runs them regardless.
guest_stamp() {
	echo "${IOCORO_CACHE:-/var/cache/iocoro}/guest-$(guest_key).passed"
}

guest_cached() {
	[ -f "$(guest_stamp)" ] && [ "${IOCORO_GUEST:-}" != always ]
}

do_guest() {
	local stamp
	stamp=$(guest_stamp)
	if guest_cached; then
		echo "guest: passed before with these inputs, see $stamp"
		tail -n 5 "$stamp"
		return 0
	fi
	initramfs/run-guest.sh --kernel "$(kernel_obj)/arch/x86/boot/bzImage" \
		--initrd "$img" --timeout "${IOCORO_GUEST_TIMEOUT:-1200}" \
		--log-dir "$run/guest-logs" --quiet -- \
		ctest --test-dir "$build" -L guest -j "${IOCORO_GUEST_JOBS:-2}" \
		--no-tests=error --output-on-failure || return
	cp "$run/guest-logs/output.log" "$stamp"
}

# The harness self-test proves what the harness does with a given kernel:
# once it passed for these inputs (initramfs/, the runner's scripts, the
# bzImage), running it again proves nothing new, so a pass is remembered
# in the kernel cache. IOCORO_SELFTEST=always runs it regardless.
do_selftest() {
	local bz key stamp
	bz=$(kernel_obj)/arch/x86/boot/bzImage
	key=$(stage_key initramfs/*.sh initramfs/dracut/*/* scripts/test.sh "$bz")
	stamp=${IOCORO_CACHE:-/var/cache/iocoro}/selftest-$key.passed
	if [ -f "$stamp" ] && [ "${IOCORO_SELFTEST:-}" != always ]; then
		echo "selftest: passed before with these inputs ($key), see $stamp"
		cat "$stamp"
		return 0
	fi
	initramfs/selftest.sh --kernel "$bz" | tee "$run/selftest.out" || return 1
	cp "$run/selftest.out" "$stamp"
}

# The docs' runnable blocks (README.md, docs/tutorial.md: "<!-- run: -->"),
# as printed, on the debug kernel; a pass is remembered like the
# self-test's, for the same blocks, runner, kernel and binaries they run.
do_docs() {
	local bz key stamp docs=(README.md docs/tutorial.md docs/kernel-series.md)
	bz=$(kernel_obj)/arch/x86/boot/bzImage
	key=$(stage_key "${docs[@]}" tests/docs/run-blocks.sh initramfs/*.sh \
		kernel/patches/* initramfs/dracut/*/* "$bz" \
		"$build/apps/copychain/copychain" "$build/docs/tutorial/orc")
	stamp=${IOCORO_CACHE:-/var/cache/iocoro}/docs-$key.passed
	if [ -f "$stamp" ] && [ "${IOCORO_SELFTEST:-}" != always ]; then
		echo "docs: passed before with these inputs ($key), see $stamp"
		cat "$stamp"
		return 0
	fi
	tests/docs/run-blocks.sh --kernel "$bz" --build "$build" "${docs[@]}" |
		tee "$run/docs.out" || return 1
	cp "$run/docs.out" "$stamp"
}

# Stock and patched kernel under the same suites; a kernel's results are
# remembered for its bzImage and the guest's inputs (tests/liburing/regress.sh)
do_regress() {
	build_kernel stock "$run/stock-obj"
	tests/liburing/regress.sh --build "$build" \
		--stock "$(cat "$run/stock-obj")/arch/x86/boot/bzImage" \
		--patched "$(kernel_obj)/arch/x86/boot/bzImage" --out "$run/regress"
}

stage deps -- scripts/install-deps.sh
stage configure --needs deps -- \
	cmake -S "$root" -B "$build" -DIOCORO_KERNEL_HEADERS="${IOCORO_KERNEL_HEADERS:-}"
stage build --needs configure -- cmake --build "$build" -j "$jobs"
stage unit --needs build -- \
	ctest --test-dir "$build" -L 'unit|check' -j "$jobs" --no-tests=error \
	--output-on-failure
stage kernel --needs deps -- do_kernel
stage initramfs --needs build -- do_initramfs
stage guest --needs "kernel initramfs" -- do_guest
stage selftest --needs kernel -- do_selftest
stage docs --needs "kernel build" -- do_docs
stage regress --needs "kernel build" -- do_regress

stages_summary "scripts/test.sh"
