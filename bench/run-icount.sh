#!/usr/bin/env bash
# Instructions per operation (issue 30): the benchmark's tmpfs cases in a
# guest whose clock counts instructions. QEMU runs with -icount
# shift=0,sleep=off on one CPU (initramfs/run-guest.sh --icount): its
# virtual clock, and the guest's TSC on it, advance 1 ns per instruction
# the guest executes (kernel and user space, io_uring workers included);
# the guest is told its TSC runs at 1 GHz, so every time bench/guest.sh
# records is a count of instructions in billions. TCG's times are not a
# CPU's; instruction counts are the same on any x86 host and from run to
# run (give or take timer interrupts).
#
# Each case runs at two sizes (N and 3N files or lookups) in the same
# guest: the difference over the extra files is the cost of one more,
# without loading, start-up and exit. bench/instructions.py writes the
# table (bench/results/instructions.md with --save).
#
# Usage: bench/run-icount.sh [--kernel BZIMAGE|OBJ_DIR] [--save]
#                            [--files N] [--lookups N] [--rounds R]
#
#   --kernel   default: ${IOCORO_CACHE:-/var/cache/iocoro}/kernel/obj-release
#              (kernel/build.sh release; never built here)
#   --files N  small, tiny and cat files of the smaller size (1000)
#   --lookups N  B+tree lookups of the smaller size (5000)
#   --rounds R recorded rounds of each size (2), after one warm-up
#
# Environment: IOCORO_BUILD_DIR (default build/), IOCORO_GUEST_TIMEOUT
# (default 5400 s). Output in <build dir>-run/bench-icount/.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prog=bench/run-icount.sh
# shellcheck source=scripts/lib/build-dir.sh
. "$root/scripts/lib/build-dir.sh"
die() { echo "$prog: error: $*" >&2; exit 1; }

kernel=${IOCORO_CACHE:-/var/cache/iocoro}/kernel/obj-release
save=0 files=1000 lookups=5000 rounds=2
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) [ $# -ge 2 ] || die "--kernel needs a path"; kernel=$2; shift 2 ;;
	--save) save=1; shift ;;
	--files) [ $# -ge 2 ] || die "--files needs a count"; files=$2; shift 2 ;;
	--lookups) [ $# -ge 2 ] || die "--lookups needs a count"; lookups=$2; shift 2 ;;
	--rounds) [ $# -ge 2 ] || die "--rounds needs a count"; rounds=$2; shift 2 ;;
	--help | -h) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1' (--help)" ;;
	esac
done
for v in files lookups rounds; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "--$v must be a positive integer"
done
[ -d "$kernel" ] && kernel=$kernel/arch/x86/boot/bzImage
[ -f "$kernel" ] || die "no kernel at '$kernel': build it with kernel/build.sh release, or pass --kernel"

build=$(iocoro_build_dir "$root")
run=$build-run/bench-icount
mkdir -p "$run"
iocoro_configure "$root" "$build"
cmake --build "$build" -j "$(nproc)" --target copychain catchain btree-lookup uring_btree step_bench uring_cp uring_cc uring_cat bench_time

# one guest.sh run a size; the CSVs come back after a marker each
gs=$(printf '%q' "$build/bench/guest.sh")
common="--bin $(printf '%q' "$build") --khz 1000000 --tools no --rounds $rounds --warmup 1 --seed 30 --steps 20000 --cases 'step small tiny cat btree'"
cmd="set -e
$gs $common --out /tmp/a.csv --small $files --tiny $files --lookups $lookups
$gs $common --out /tmp/b.csv --small $((3 * files)) --tiny $((3 * files)) --lookups $((3 * lookups))
echo '----- a.csv -----'; cat /tmp/a.csv; echo '----- b.csv -----'; cat /tmp/b.csv"
cmd_file=$run/icount-cmd.sh
printf '%s\n' "$cmd" > "$cmd_file"
img=$run/guest-initramfs.img
rm -f "$img"
IOCORO_EXTRA_INSTALL=$cmd_file IOCORO_CTEST=0 "$root/initramfs/build-initramfs.sh" "$build" "$img"

set +e
"$root/initramfs/run-guest.sh" --kernel "$kernel" --initrd "$img" \
	--icount --smp 1 --append "tsc_early_khz=1000000 tsc=reliable" --mem 4096 \
	--timeout "${IOCORO_GUEST_TIMEOUT:-5400}" --no-leak-check --quiet \
	--log-dir "$run/guest-logs" -- sh "$cmd_file" | sed -u '/^----- a.csv -----$/,$d'
rc=${PIPESTATUS[0]}
set -e
out=$run/guest-logs/output.log
[ "$rc" = 0 ] || die "the guest run failed (exit $rc; $run/guest-logs/)"
sed -n '/^----- a.csv -----$/,/^----- b.csv -----$/p' "$out" | sed '1d;$d' > "$run/a.csv"
sed '1,/^----- b.csv -----$/d' "$out" > "$run/b.csv"
python3 "$root/bench/instructions.py" "$run/a.csv" "$run/b.csv" > "$run/instructions.md"
cat "$run/instructions.md"
if [ "$save" = 1 ]; then
	cp "$run/instructions.md" "$root/bench/results/instructions.md"
	cat "$run/a.csv" "$run/b.csv" > "$root/bench/results/instructions.csv"
	echo "$prog: saved to bench/results/"
fi
