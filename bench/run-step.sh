#!/usr/bin/env bash
# The step benchmark (bench/step, issue 9) in the guest: boot the release
# kernel in QEMU, run step_bench there once, print its table and bring its
# CSV back.
#
# Usage: bench/run-step.sh [--kernel BZIMAGE|OBJ_DIR] [--perf]
#                          [-- STEP_BENCH_ARGS...]
#
#   --kernel   the kernel to boot: a bzImage, or a kernel/build.sh obj dir
#              (its arch/x86/boot/bzImage). Default: $IOCORO_BENCH_KERNEL,
#              else the obj dir `kernel/build.sh release` prints,
#              ${IOCORO_CACHE:-/var/cache/iocoro}/kernel/obj-release.
#              This script never builds the kernel: run kernel/build.sh
#              release first (scripts/run-main.sh does).
#   --perf     instead of the benchmark, profile a step: each contender
#              (bpf, loop, link) runs alone (--only) for 3 rounds of
#              300,000 steps under `perf record -e cpu-clock` in the
#              guest, and perf report's top symbols are printed (perf
#              from Debian's linux-perf, copied into the image; the
#              release kernel has kallsyms, the symbols are the kernel's
#              and step_bench's). Attribution under TCG is approximate;
#              the ticks/step line of each run is exact (rdtsc).
#   STEP_BENCH_ARGS  passed on, e.g. -- --rounds 9 --steps 20000
#              (step_bench --help); --csv is set here, and --tsc-khz to
#              the host's TSC rate (step_bench --measure-tsc on the host:
#              only rdtsc and the clock, nothing is loaded), since a TCG
#              guest's TSC ticks at the host's rate while its own
#              CLOCK_MONOTONIC runs on jiffies that lose time under load.
#
# Environment:
#   IOCORO_BUILD_DIR       CMake build dir (default build/; configured here
#                          if it is not yet, with IOCORO_KERNEL_HEADERS);
#                          step_bench is (re)built in it
#   IOCORO_KERNEL_HEADERS  uapi headers for that configure
#   IOCORO_BENCH_KERNEL    default for --kernel
#   IOCORO_GUEST_TIMEOUT   QEMU timeout in s (default 1800)
#
# Results in <build dir>-run/bench/: step.txt (the table), step.csv
# (case,contender,round,metric,value), guest-logs/, guest-initramfs.img.
# Exit status: step_bench's in the guest (0: every run completed with exact
# counts), or run-guest.sh's verdict (124 timeout, 125 no status, 126
# kernel-log findings), 1 for a setup failure here.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prog='run-step.sh'
# shellcheck source=scripts/lib/build-dir.sh
. "$root/scripts/lib/build-dir.sh"

die() {
	echo "$prog: error: $*" >&2
	exit 1
}

perf=0
kernel=${IOCORO_BENCH_KERNEL:-${IOCORO_CACHE:-/var/cache/iocoro}/kernel/obj-release}
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) [ $# -ge 2 ] || die "--kernel needs a path"; kernel=$2; shift 2 ;;
	--perf) perf=1; shift ;;
	--help | -h) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	--) shift; break ;;
	*) die "unknown argument '$1' (--help)" ;;
	esac
done
tsc_given=0
for a in "$@"; do
	case "$a" in
	--csv | --csv=*) die "--csv is set by $prog (the CSV lands in the run dir)" ;;
	--tsc-khz | --tsc-khz=*) tsc_given=1 ;;
	esac
done

[ -d "$kernel" ] && kernel=$kernel/arch/x86/boot/bzImage
[ -f "$kernel" ] || die "no kernel at '$kernel': build it with kernel/build.sh release, or pass --kernel"

build=$(iocoro_build_dir "$root")
run=$build-run/bench
img=$run/guest-initramfs.img
mkdir -p "$run"

iocoro_configure "$root" "$build"
cmake --build "$build" --target step_bench -j "$(nproc)"
bench=$build/bench/step/step_bench
[ -x "$bench" ] || die "$bench was not built"

tsc_args=()
tsc_khz=$("$bench" --measure-tsc) || die "step_bench --measure-tsc failed on the host"
echo "$prog: host TSC at $tsc_khz kHz: the guest's rdtsc ticks at that rate"
[ "$tsc_given" = 1 ] || tsc_args=(--tsc-khz "$tsc_khz")

extra=${IOCORO_EXTRA_INSTALL-}
if [ "$perf" = 1 ]; then
	perf_bin=$(command -v perf) || die "--perf needs perf (apt-get install linux-perf)"
	extra="$extra $perf_bin"
fi
rm -f "$img"
IOCORO_EXTRA_INSTALL=$extra IOCORO_CTEST=0 "$root/initramfs/build-initramfs.sh" "$build" "$img"

# in the guest: the table on stdout, then the CSV after a marker line
marker='----- step.csv -----'
cmd="$(printf '%q ' "$bench" "${tsc_args[@]}" "$@") --csv /tmp/step.csv; rc=\$?; echo '$marker'; cat /tmp/step.csv; exit \$rc"
if [ "$perf" = 1 ]; then
	marker='----- no csv -----'
	cmd="echo 100000 >/proc/sys/kernel/perf_event_max_sample_rate
echo 100 >/proc/sys/kernel/perf_cpu_time_max_percent
rc=0
for c in bpf loop link; do
	echo \"==== \$c\"
	perf record -q -e cpu-clock -F 20000 -m 2048 -a -o /tmp/perf-\$c.data -- \
		$(printf '%q ' "$bench" "${tsc_args[@]}" "$@") --only \$c --rounds 3 --steps 300000 >/tmp/out-\$c.txt 2>&1 || rc=1
	grep 'ticks/step' /tmp/out-\$c.txt
	perf report -i /tmp/perf-\$c.data --stdio --no-children --comm step_bench \
		--sort symbol --percent-limit 0.5 2>/dev/null | grep -v -e '^#' -e '^\$' | head -30
done
exit \$rc"
fi

rc=0
"$root/initramfs/run-guest.sh" --kernel "$kernel" --initrd "$img" \
	--append "tsc_early_khz=$tsc_khz tsc=reliable" --timeout "${IOCORO_GUEST_TIMEOUT:-1800}" --no-leak-check \
	--log-dir "$run/guest-logs" -- "$cmd" >"$run/console.txt" 2>&1 || rc=$?

out=$run/guest-logs/output.log
if [ -s "$out" ]; then
	sed "/^$marker\$/,\$d" "$out" >"$run/step.txt"
	sed "1,/^$marker\$/d" "$out" >"$run/step.csv"
fi
echo "==== step_bench (guest; kernel $kernel; logs: $run/guest-logs) ===="
if [ -s "$run/step.txt" ]; then
	cat "$run/step.txt"
else
	tail -n 40 "$run/console.txt"
fi
if grep -qs 'KernelAddressSanitizer initialized' "$run/guest-logs/kernel.log" "$run/guest-logs/console.log"; then
	echo "$prog: note: this kernel has KASAN (a debug build): its numbers are not the release kernel's"
fi
echo "$prog: table $run/step.txt, CSV $run/step.csv, verdict: $(cat "$run/guest-logs/verdict.log" 2>/dev/null || echo none) (exit $rc)"
exit "$rc"
