#!/bin/sh
# bench_smoke (ctest, guest): bench/guest.sh's copy, cat, B+tree and sweep cases at tiny sizes,
# one round, on tmpfs: every contender must run, its copy must equal the
# source (guest.sh checks), and the CSV must hold one time per contender;
# no timing is judged. (The step case has its own smoke test.)
#
# Usage: smoke.sh GUEST_SH BUILD_DIR
set -u
csv=$(mktemp "${TMPDIR:-/tmp}/bench-smoke.XXXXXX") || exit 1
trap 'rm -f "$csv"' EXIT
khz=$("$2/bench/step/step_bench" --measure-tsc) || exit 1
"$1" --bin "$2" --khz "$khz" --out "$csv" --rounds 1 --warmup 0 --big-mib 1 --small 10 \
	--tiny 10 --lookups 20 --sweep "1 4" --cases "copy small tiny cat btree sweep" || { echo "smoke: guest.sh failed" >&2; exit 1; }
fail=0
for row in copy_tmpfs,copychain copy_tmpfs,cp copy_tmpfs,uring_cc \
	copy_tmpfs,copychain_sync copy_tmpfs,cp_sync copy_tmpfs,uring_cc_sync \
	copy_tmpfs,uring_cp copy_tmpfs,uring_cp_ccdepth copy_tmpfs,rw_loop \
	small_tmpfs,copychain small_tmpfs,cp small_tmpfs,uring_cc \
	small_tmpfs,copychain_dt small_tmpfs,uring_cc_dt \
	small_tmpfs,copychain_sync small_tmpfs,cp_sync small_tmpfs,uring_cc_sync \
	small_tmpfs,uring_cp tiny_tmpfs,copychain tiny_tmpfs,cp tiny_tmpfs,uring_cc \
	tiny_tmpfs,copychain_sync tiny_tmpfs,cp_sync tiny_tmpfs,uring_cc_sync \
	cat_tmpfs,catchain cat_tmpfs,cat cat_tmpfs,uring_cat \
	btree_tmpfs_d3,bpf btree_tmpfs_d3,pread btree_tmpfs_d3,uring \
	btree_tmpfs_d6_q1,bpf btree_tmpfs_d6_q1,pread btree_tmpfs_d6_q1,uring \
	sweep_btree_q1,bpf sweep_btree_q4,uring sweep_small_q1,copychain \
	sweep_small_q4,uring_cc; do
	n=$(grep -c "^$row,1,seconds,[0-9.]*$" "$csv")
	[ "$n" = 1 ] || { echo "smoke: $n time rows for $row" >&2; fail=1; }
done
# copychain and uring_cp count their io_uring_enter calls
for row in copy_tmpfs,copychain small_tmpfs,copychain copy_tmpfs,uring_cp \
	small_tmpfs,uring_cc tiny_tmpfs,copychain cat_tmpfs,catchain cat_tmpfs,uring_cat; do
	grep -q "^$row,1,enters,[1-9][0-9]*$" "$csv" ||
		{ echo "smoke: no enters row for $row" >&2; fail=1; }
done
# every timed run has its CPU time (wait4; may be 0 at the tick's
# resolution) and its context switches (a process that waited has some)
for row in small_tmpfs,copychain small_tmpfs,uring_cc cat_tmpfs,cat; do
	grep -q "^$row,1,cpu_seconds,[0-9][0-9.]*$" "$csv" ||
		{ echo "smoke: no CPU row for $row" >&2; fail=1; }
	grep -q "^$row,1,context_switches,[1-9][0-9]*$" "$csv" ||
		{ echo "smoke: no context switches row for $row" >&2; fail=1; }
done
# copychain and catchain count their program runs; copychain times its work
for row in small_tmpfs,copychain,1,steps tiny_tmpfs,copychain,1,steps \
	cat_tmpfs,catchain,1,steps small_tmpfs,copychain,1,work_seconds \
	small_tmpfs,copychain,1,load_seconds small_tmpfs,copychain,1,verify_seconds; do
	grep -q "^$row,[0-9.]*[1-9][0-9.]*$" "$csv" ||
		{ echo "smoke: no row $row" >&2; fail=1; }
done
# copychain and uring_cc say their mean files in flight: 0 (the test
# guest's 4 ms clock may not see a file's time) to --jobs
for row in small_tmpfs,copychain small_tmpfs,uring_cc sweep_small_q4,copychain \
	sweep_small_q1,uring_cc; do
	q=$(sed -n "s/^$row,1,inflight_mean,\([0-9.]*\)$/\1/p" "$csv")
	max=64
	case $row in sweep_small_q*) max=${row#sweep_small_q}; max=${max%%,*} ;; esac
	awk -v q="$q" -v m="$max" 'BEGIN { exit !(q != "" && q >= 0 && q <= m + 0.05) }' ||
		{ echo "smoke: $row: mean in flight '$q' (at most $max)" >&2; fail=1; }
done
# each B+tree contender gives a lookup's p50 and p99, 0 <= p50 <= p99 (0:
# the guest's clock may tick every 4 ms)
for row in btree_tmpfs_d3,bpf btree_tmpfs_d6_q1,uring btree_tmpfs_d6_q1,pread; do
	p50=$(sed -n "s/^$row,1,p50_us,\([0-9.]*\)$/\1/p" "$csv")
	p99=$(sed -n "s/^$row,1,p99_us,\([0-9.]*\)$/\1/p" "$csv")
	awk -v a="$p50" -v b="$p99" 'BEGIN { exit !(a != "" && b != "" && a >= 0 && a <= b) }' ||
		{ echo "smoke: $row: p50 '$p50', p99 '$p99'" >&2; fail=1; }
done
[ "$fail" = 0 ] && echo "smoke: ok ($(wc -l < "$csv") rows)"
exit "$fail"
