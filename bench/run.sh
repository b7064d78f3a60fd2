#!/usr/bin/env bash
# All benchmarks in one guest run (issue 12): boot the release kernel with
# a virtio disk (ext4, made here, on an image file QEMU opens with
# cache=none: O_DIRECT, so the guest's reads after its drop_caches reach
# the host's disk, not the host's page cache), run bench/guest.sh there (every case,
# the contenders alternating, each repeated), bring its CSV back and turn
# it into the report: a table of ratios, a CSV summary, PNG charts.
#
# Usage: bench/run.sh [--kernel BZIMAGE|OBJ_DIR] [--save] [-- GUEST_ARGS...]
#
#   --kernel    default: the release obj dir kernel/build.sh release
#               prints (${IOCORO_CACHE:-/var/cache/iocoro}/kernel/obj-release);
#               this script never builds the kernel (run kernel/build.sh
#               release, or scripts/run-main.sh, first)
#   --save      also copy the report into bench/results/ (what is
#               committed) and put its headline.md into README.md's
#               benchmark table (bench/readme_table.py)
#   GUEST_ARGS  bench/guest.sh's: --rounds R (10), --warmup W (1), --seed S
#               (random, recorded), --big-mib N (1024),
#               --small N (10000), --tiny N (20000), --steps N (10000),
#               --lookups N (200000), --direct-lookups N (5000),
#               --scale "1 64 1024 10000 100000", --sweep "1 4 16 64 256",
#               --cases "step scale copy small tiny cat btree sweep"
#
# Environment: IOCORO_BUILD_DIR (default build/), IOCORO_KERNEL_HEADERS,
# IOCORO_GUEST_TIMEOUT (default 14400 s; the defaults take ~2.5 h, an
# estimate: on series v12 the tmpfs cases and the curves took 43 min, the
# 1 GiB disk copy 20 min, the 10,000-file disk copy more than 17; the
# guest's progress lines give the time since it began).
# Output in <build dir>-run/bench-all/: bench.csv (every row), table.md,
# summary.csv, *.png, versions.txt, guest-logs/.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prog=bench/run.sh
# shellcheck source=scripts/lib/build-dir.sh
. "$root/scripts/lib/build-dir.sh"
die() { echo "$prog: error: $*" >&2; exit 1; }

kernel=${IOCORO_CACHE:-/var/cache/iocoro}/kernel/obj-release
save=0
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) [ $# -ge 2 ] || die "--kernel needs a path"; kernel=$2; shift 2 ;;
	--save) save=1; shift ;;
	--help | -h) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	--) shift; break ;;
	*) die "unknown argument '$1' (--help)" ;;
	esac
done
[ -d "$kernel" ] && kernel=$kernel/arch/x86/boot/bzImage
[ -f "$kernel" ] || die "no kernel at '$kernel': build it with kernel/build.sh release, or pass --kernel"

big_mib=1024
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
	[ "${args[i]}" = --big-mib ] && big_mib=${args[i + 1]}
done

build=$(iocoro_build_dir "$root")
run=$build-run/bench-all
mkdir -p "$run"

iocoro_configure "$root" "$build"
cmake --build "$build" -j "$(nproc)" --target copychain catchain btree-lookup uring_btree step_bench uring_cp uring_cc uring_cat bench_time

khz=$("$build/bench/step/step_bench" --measure-tsc) || die "step_bench --measure-tsc failed"
echo "$prog: host TSC at $khz kHz"
# the guest's clocks (CLOCK_MONOTONIC, timestamps) on the TSC at that rate,
# not on jiffies: TCG cannot calibrate it (no HPET), so the rate is given

# the disk: ext4 on a sparse file, room for the big file twice and the
# small files, made afresh each run
disk=$run/disk.img
rm -f "$disk"
truncate -s "$((big_mib * 3 + 2048))M" "$disk"
mkfs.ext4 -q -F -L iocoro-bench "$disk"

img=$run/guest-initramfs.img
rm -f "$img"
# the peers that are other tools (bench/guest.sh --tools yes): uutils cp
# (rust-coreutils: one multi-call binary), rsync, fio
tools="/usr/lib/cargo/bin/coreutils/cp /usr/bin/coreutils /usr/bin/rsync /usr/bin/fio"
for t in $tools; do
	[ -e "$t" ] || die "$t missing: run scripts/install-deps.sh"
done
IOCORO_EXTRA_INSTALL=$tools IOCORO_CTEST=0 "$root/initramfs/build-initramfs.sh" "$build" "$img"

marker='----- bench.csv -----'
cmd="$(printf '%q ' "$build/bench/guest.sh" --bin "$build" --khz "$khz" --out /tmp/bench.csv --disk /dev/vda --disk-cache none --tools yes "$@"); rc=\$?; echo '$marker'; cat /tmp/bench.csv; exit \$rc"
mem=$((big_mib * 3 + 2048))
[ "$mem" -ge 4096 ] || mem=4096

# the guest's output as it comes, without the CSV dump at its end
set +e
"$root/initramfs/run-guest.sh" --kernel "$kernel" --initrd "$img" --disk "$disk" \
	--disk-cache none --append "tsc_early_khz=$khz tsc=reliable" --mem "$mem" --timeout "${IOCORO_GUEST_TIMEOUT:-14400}" --no-leak-check --quiet \
	--log-dir "$run/guest-logs" -- "$cmd" | sed -u "/^$marker\$/,/^run-guest: QEMU ended/{/^run-guest: QEMU ended/!d}"
rc=${PIPESTATUS[0]}
set -e
rm -f "$disk"
out=$run/guest-logs/output.log
sed "1,/^$marker\$/d" "$out" > "$run/bench.csv"
[ "$rc" = 0 ] || die "the guest run failed (exit $rc; $run/guest-logs/)"

{
	echo "kernel: $(grep -m1 '^info,kernel' "$run/bench.csv" | cut -d, -f5) ($kernel), linux-source-6.12 $(dpkg-query -W -f='${Version}' linux-source-6.12), kernel/patches/ $(cat "$root"/kernel/patches/*.patch | sha256sum | cut -c1-12)"
	echo "qemu: $(qemu-system-x86_64 --version | head -n 1)"
	for p in liburing-dev libbpf-dev coreutils rust-coreutils rsync fio gcc clang; do
		echo "$p: $(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || echo none)"
	done
	echo "host: $(nproc) cpus, $(awk '/MemTotal/ {print int($2 / 1048576) " GiB"}' /proc/meminfo), TSC $khz kHz"
	echo "disk: a raw image attached cache=none (O_DIRECT), on $(df -T "$run" | awk 'NR == 2 {print $2 " on " $1}')"
	echo "iocoro: $(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)"
} > "$run/versions.txt"
python3 "$root/bench/report.py" "$run/bench.csv" "$run" "$run/versions.txt"
if [ "$save" = 1 ]; then
	mkdir -p "$root/bench/results"
	cp "$run"/{bench.csv,table.md,targets.md,headline.md,summary.csv,versions.txt} \
		"$root/bench/results/"
	cp "$run"/*.png "$root/bench/results/" 2>/dev/null || true
	python3 "$root/bench/readme_table.py" "$root/README.md" "$run/headline.md"
	echo "$prog: saved to bench/results/ and README.md's table"
fi
echo "$prog: report in $run/table.md"
