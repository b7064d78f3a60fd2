#!/bin/sh
# bench_smoke (ctest, guest): bench/guest.sh's copy and cat cases at tiny sizes,
# one round, on tmpfs: every contender must run, its copy must equal the
# source (guest.sh checks), and the CSV must hold one time per contender;
# no timing is judged. (The step case has its own smoke test.)
#
# Usage: smoke.sh GUEST_SH BUILD_DIR
set -u
csv=$(mktemp "${TMPDIR:-/tmp}/bench-smoke.XXXXXX") || exit 1
trap 'rm -f "$csv"' EXIT
khz=$("$2/bench/step/step_bench" --measure-tsc) || exit 1
"$1" --bin "$2" --khz "$khz" --out "$csv" --rounds 1 --big-mib 1 --small 10 \
	--tiny 10 --cases "copy small tiny cat" || { echo "smoke: guest.sh failed" >&2; exit 1; }
fail=0
for row in copy_tmpfs,copychain copy_tmpfs,cp copy_tmpfs,uring_cc \
	copy_tmpfs,copychain_sync copy_tmpfs,cp_sync copy_tmpfs,uring_cc_sync \
	copy_tmpfs,uring_cp copy_tmpfs,uring_cp_ccdepth copy_tmpfs,rw_loop \
	small_tmpfs,copychain small_tmpfs,cp small_tmpfs,uring_cc \
	small_tmpfs,copychain_sync small_tmpfs,cp_sync small_tmpfs,uring_cc_sync \
	small_tmpfs,uring_cp tiny_tmpfs,copychain tiny_tmpfs,cp tiny_tmpfs,uring_cc \
	tiny_tmpfs,copychain_sync tiny_tmpfs,cp_sync tiny_tmpfs,uring_cc_sync \
	cat_tmpfs,catchain cat_tmpfs,cat cat_tmpfs,uring_cat; do
	n=$(grep -c "^$row,1,seconds,[0-9.]*$" "$csv")
	[ "$n" = 1 ] || { echo "smoke: $n time rows for $row" >&2; fail=1; }
done
# copychain and uring_cp count their io_uring_enter calls
for row in copy_tmpfs,copychain small_tmpfs,copychain copy_tmpfs,uring_cp \
	small_tmpfs,uring_cc tiny_tmpfs,copychain cat_tmpfs,catchain cat_tmpfs,uring_cat; do
	grep -q "^$row,1,enters,[1-9][0-9]*$" "$csv" ||
		{ echo "smoke: no enters row for $row" >&2; fail=1; }
done
[ "$fail" = 0 ] && echo "smoke: ok ($(wc -l < "$csv") rows)"
exit "$fail"
